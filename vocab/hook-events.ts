/** The events a setup act may hook (`on:`): shared by the engine's model and the designer's hook form. */
export const HOOK_EVENTS = ['created', 'completed', 'before_update', 'updated', 'step'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
