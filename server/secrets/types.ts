/** What the secrets store shows of a secret: its name and history, never its value. */
export interface SecretInfo {
  name: string;
  create_time: number;
  create_by: string;
  update_time: number;
  update_by: string;
}
