/**
 * The rules of group names (server/auth groups, the API, the CLI and the studio's admin pages): a
 * group is a team an interrupt act may be offered to (`params.candidate_groups`).
 */

/** A group's name: 1–64 letters, digits, `.`, `_` or `-`, starting with a letter or digit. */
export const GROUP_NAME = /^[\p{L}\p{N}][\p{L}\p{N}._-]{0,63}$/u;

/** The longest description a group may have, in characters. */
export const GROUP_DESCRIPTION_MAX = 200;

/** What a group name must look like, in words. */
export const GROUP_NAME_RULE = 'a group name is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit';
