// The explanation's reasons and suggestions in the page: every buffer live at
// the peak has a reason, and applying a suggestion opens the comparison with
// side B at exactly the saving the plan states (as plan --json does).

import { expect } from '@playwright/test';
import { snap, summary, waitForPlan, test } from './fixtures';

test('applying a suggestion opens the comparison with the saving it states', async ({ page }) => {
  await page.setViewportSize({ width: 1500, height: 950 });
  await page.goto('/?target=phone');
  await waitForPlan(page);
  const peak = (await summary(page)).peak;
  const reasons = page.getByTestId('peak-reason');
  await expect(reasons.first()).toBeVisible();
  for (const text of await reasons.allTextContents()) expect(text).toMatch(/: \S/);
  const suggestion = page.getByTestId('suggestion').filter({ has: page.getByTestId('suggestion-apply') }).first();
  await expect(suggestion).toHaveAttribute('data-kind', 'fusion');
  const saves = Number(await suggestion.getAttribute('data-saves'));
  expect(saves).toBe(102400); // plan public/sample.onnx --target phone --json: suggestions[0].saves
  await suggestion.getByTestId('suggestion-apply').click();
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('compare-summary-a')).toHaveAttribute('data-peak', String(peak));
  await expect(dialog.getByTestId('compare-summary-b')).toHaveAttribute('data-peak', String(peak - saves));
  await expect(dialog).toContainText('fusion off');
  await snap(page, 'explain-suggestion-applied');
});
