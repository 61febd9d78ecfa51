/**
 * Keeps `processes.list` live: listens to the `model:<mid>` room of each model shown (processes
 * started, ended, errored, aborted) and refreshes the list when one has news. One child per room,
 * because a hook cannot be called in a loop; rooms come and go with the models.
 */
'use client';
import { liveRoom, useLiveRefetch } from '../data/live.tsx';

function ModelRoom({ mid, cursor }: { mid: string; cursor: number }) {
  useLiveRefetch(liveRoom.model(mid), cursor, ['processes.list']);
  return null;
}

export function ModelRooms({ mids, cursor }: { mids: readonly string[]; cursor: number | null }) {
  if (cursor === null) return null;
  return (
    <>
      {mids.map((mid) => (
        <ModelRoom key={mid} mid={mid} cursor={cursor} />
      ))}
    </>
  );
}
