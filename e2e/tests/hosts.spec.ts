import { apiFor } from '../fixtures/api.js';
import { expect, signIn, test } from '../fixtures/test.js';
import { hostPayload, rigEngine } from '../fixtures/rig.js';

test.describe('hosts page', () => {
  test('shows the empty state, validates inline and adds an mTLS host from certificate files', async ({
    page,
    readyServer: _,
  }) => {
    await signIn(page);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Hosts' })
      .click();
    await expect(page.getByText('No hosts configured')).toBeVisible();
    await expect(page.getByText('Add your first Docker host to get started')).toBeVisible();

    await page.getByRole('button', { name: 'Add Host' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Host' });
    await dialog.getByRole('button', { name: 'Add Host' }).click();
    await expect(dialog.getByText('Host name is required')).toBeVisible();
    await expect(dialog.getByText('Address/Endpoint is required')).toBeVisible();
    await dialog.getByLabel('Address/Endpoint').fill('ftp://nowhere');
    await dialog.getByRole('button', { name: 'Add Host' }).click();
    await expect(
      dialog.getByText('URL must start with unix://, tcp://, http:// or https://'),
    ).toBeVisible();

    await dialog.getByLabel('Address/Endpoint').fill('unix:///var/run/docker.sock');
    await expect(dialog.getByText('Local UNIX socket — TLS not applicable')).toBeVisible();

    const tls = rigEngine('tls');
    if (tls.tls === undefined) throw new Error('rig tls engine has no certificates');
    await dialog.getByLabel('Name').fill('secure-edge');
    await dialog.getByLabel('Address/Endpoint').fill(tls.url);
    await dialog.getByLabel('Tags').fill('Prod, EU');
    await dialog.getByRole('button', { name: 'Test Connection' }).click();
    await expect(
      dialog.getByText(`${tls.url} expects TLS: give its CA, client certificate and key`),
    ).toBeVisible();
    // A long message wraps beside the buttons; their labels stay on one line.
    const labelLines = await dialog.getByRole('button', { name: 'Add Host' }).evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    expect(labelLines).toBe(1);
    await dialog.getByLabel('Use mutual TLS (mTLS)').check();
    await dialog.getByRole('button', { name: 'Test Connection' }).click();
    await expect(
      dialog.getByText('All three certificates are required for mTLS connection'),
    ).toBeVisible();
    await dialog.getByLabel('CA Certificate').setInputFiles(tls.tls.ca);
    await dialog.getByLabel('Client Certificate').setInputFiles(tls.tls.cert);
    await dialog.getByLabel('Client Key').setInputFiles(tls.tls.key);
    await dialog.getByRole('button', { name: 'Test Connection' }).click();
    await expect(
      dialog.getByText(/^Connection successful! Docker \S+ \(API 1\.\d+\)$/),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Add Host' }).click();
    await expect(page.getByText('Host "secure-edge" added successfully')).toBeVisible();

    const row = page.getByTestId('host-row-secure-edge');
    await expect(row.getByText('Online')).toBeVisible({ timeout: 15_000 });
    await expect(row.getByText('prod')).toBeVisible();
    await expect(row.getByRole('img', { name: 'Secure', exact: true })).toBeVisible();
  });

  test('a wrong client certificate shows the server detail, and edit keeps the stored certificates', async ({
    page,
    readyServer: _,
  }) => {
    const tls = rigEngine('tls');
    if (tls.tls === undefined || tls.wrongTls === undefined)
      throw new Error('rig tls engine has no certificates');
    await signIn(page);
    await page.goto('/hosts');
    await page.getByRole('button', { name: 'Add Host' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Host' });
    await dialog.getByLabel('Name').fill('intruder');
    await dialog.getByLabel('Address/Endpoint').fill(tls.url);
    await dialog.getByLabel('Use mutual TLS (mTLS)').check();
    await dialog.getByLabel('CA Certificate').setInputFiles(tls.wrongTls.ca);
    await dialog.getByLabel('Client Certificate').setInputFiles(tls.wrongTls.cert);
    await dialog.getByLabel('Client Key').setInputFiles(tls.wrongTls.key);
    await dialog.getByRole('button', { name: 'Test Connection' }).click();
    await expect(
      dialog.getByText(
        `TLS handshake rejected by ${tls.url}: the engine did not accept the client certificate`,
      ),
    ).toBeVisible();
    await dialog.getByLabel('CA Certificate').setInputFiles(tls.tls.ca);
    await dialog.getByLabel('Client Certificate').setInputFiles(tls.tls.cert);
    await dialog.getByLabel('Client Key').setInputFiles(tls.tls.key);
    await dialog.getByRole('button', { name: 'Add Host' }).click();
    await expect(page.getByTestId('host-row-intruder').getByText('Online')).toBeVisible({
      timeout: 15_000,
    });
    // At a 1280 px window the row's actions are in sight, not past the table's edge behind a
    // long OS and kernel string.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByTestId('host-row-intruder')).toContainText('Docker ');
    await expect(page.getByRole('button', { name: 'Edit intruder' })).toBeInViewport({ ratio: 1 });
    // Narrower, the table scrolls sideways and its Actions column stays at the right edge.
    await page.setViewportSize({ width: 1140, height: 800 });
    const scroller = page.getByRole('table').locator('xpath=..');
    await expect.poll(() => scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await expect(page.getByRole('button', { name: 'Delete intruder' })).toBeInViewport({
      ratio: 1,
    });
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Edit intruder' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Host' });
    await expect(edit.getByText('Uploaded')).toHaveCount(3);
    await edit.getByLabel('Name').fill('trusted');
    await edit.getByRole('button', { name: 'Test Connection' }).click();
    await expect(edit.getByText(/^Connection successful!/)).toBeVisible();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Host "trusted" updated successfully')).toBeVisible();
    await expect(page.getByTestId('host-row-trusted').getByText('Online')).toBeVisible();

    await page.getByLabel('Search hosts').fill('nomatch');
    await expect(page.getByTestId('host-row-trusted')).toHaveCount(0);
    await page.getByLabel('Search hosts').fill('TRUS');
    await expect(page.getByTestId('host-row-trusted')).toBeVisible();

    await page.getByRole('button', { name: 'Delete trusted' }).click();
    await page
      .getByRole('dialog', { name: 'Delete Host' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByText('Host deleted successfully')).toBeVisible();
    await expect(page.getByText('No hosts configured')).toBeVisible();
  });

  test('an address is checked: a port out of range inline, a registered engine by the server', async ({
    page,
    readyServer,
  }) => {
    const api = await apiFor(readyServer.url);
    await api.post('/hosts', hostPayload('plain', 'edge'));
    const plain = rigEngine('plain').url;
    await signIn(page);
    await page.goto('/hosts');
    await page.getByRole('button', { name: 'Add Host' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Host' });
    await dialog.getByLabel('Name').fill('again');
    await dialog.getByLabel('Address/Endpoint').fill('tcp://127.0.0.1:99999');
    await dialog.getByRole('button', { name: 'Add Host' }).click();
    await expect(dialog.getByText('URL port must be between 1 and 65535')).toBeVisible();

    // http:// is the same engine as the registered tcp://: one host, its containers once.
    const respelt = plain.replace('tcp://', 'http://');
    await dialog.getByLabel('Address/Endpoint').fill(respelt);
    await dialog.getByRole('button', { name: 'Add Host' }).click();
    await expect(
      page.getByText(
        `Host with URL '${plain}' already exists as 'edge' (the same engine as ${respelt})`,
      ),
    ).toBeVisible();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('host-row-edge')).toBeVisible();
    await expect(page.getByTestId('host-row-again')).toHaveCount(0);
  });
});
