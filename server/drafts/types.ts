/** The drafts as the API shows them (server/api names them from here, never from server/store). */

/** Which draft: the user's draft of a deployed model (`mid`), or of a workflow never deployed (`fresh`, a key the studio made). */
export type DraftKey = { mid: string; fresh?: undefined } | { fresh: string; mid?: undefined };

/** A point on the canvas. */
export interface Point {
  x: number;
  y: number;
}

/** One draft without its text (lists). */
export interface DraftSummary {
  /** The deployed model it edits; '' for a workflow never deployed. */
  mid: string;
  /** The key of a never-deployed workflow's draft; '' for a deployed model's. */
  fresh: string;
  title: string;
  user_name: string;
  base_ver: number;
  create_time: number;
  update_time: number;
}

/** One draft with its text and layout. */
export interface Draft extends DraftSummary {
  source: string;
  layout: Record<string, Point>;
}

export interface DraftSave {
  key: DraftKey;
  source: string;
  layout: Record<string, Point>;
  /** The deployed version the text started from (0: never deployed). */
  base_ver: number;
}

/** Who saves or reads: only their own drafts. */
export interface DraftOwner {
  userId: string;
  name: string;
}
