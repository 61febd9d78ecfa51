/** Locators and steps the designer's specs share: a node of the graph, the YAML editor, the deploy button, the property panel and a property set in it. */
import type { Page } from '@playwright/test';

export const node = (page: Page, id: string) => page.getByTestId(`node-${id}`);
export const yaml = (page: Page) => page.getByTestId('yaml-editor');
export const deployButton = (page: Page) => page.getByTestId('deploy-button');
export const panel = (page: Page) => page.getByRole('form', { name: /^Properties of/ });

/** Types into a property panel field and commits it (Enter). */
export async function setProperty(page: Page, label: string, value: string) {
  const field = panel(page).getByLabel(label, { exact: true });
  await field.fill(value);
  await field.press('Enter');
}
