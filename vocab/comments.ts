/**
 * Comments on inbox tasks (the inbox's `comment`, kept as the task's audit entries and shown to the
 * next people who open a task of the run, and in the run page's task history): their action name
 * and size limit.
 */

/** The audit action a comment is kept as. */
export const COMMENT_ACTION = 'task.comment';

/** The longest comment, in characters. */
export const COMMENT_MAX_CHARS = 1000;
