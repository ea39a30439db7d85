// The in-person page: pick a reader, start a checkout, terminate it, and watch for the result.
// Every call goes to this shop's server (/in-person/api/...), which holds the provider key.
// The result comes from the provider's webhook to the server; the page only polls the server.
// No inline script and no HTML strings: the page runs under a strict CSP with Trusted Types.

const POLL_MS = 500;

const root = document.getElementById('in-person');
const $ = (id) => document.getElementById(id);
const readerSelect = $('reader');
const readersNote = $('readers-note');
const form = $('checkout-form');
const amountInput = $('amount');
const startButton = $('start-checkout');
const terminateButton = $('terminate');
const paymentBox = $('payment');
const statusOutput = $('payment-status');
const errorBox = $('error');
const simulatorNote = $('simulator-note');
const simulatorButtons = ['present-card', 'enter-pin', 'go-offline', 'go-online']
  .map((id) => $(id))
  .filter((button) => button !== null);

let pollTimer;
let currentPayment;

async function api(method, path, body) {
  const init = { method, headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    return { ok: false, status: 0, body: { error: { message: 'The shop server is unreachable' } } };
  }
  const text = await response.text();
  let parsed = {};
  try {
    parsed = text === '' ? {} : JSON.parse(text);
  } catch {
    parsed = { error: { message: `The server answered ${response.status}` } };
  }
  return { ok: response.ok, status: response.status, body: parsed };
}

function showError(result) {
  const error = result?.body?.error;
  errorBox.textContent = error
    ? `${error.message}${error.code ? ` (${error.code})` : ''}`
    : 'Something went wrong';
}

function clearError() {
  errorBox.textContent = '';
}

function selectedReader() {
  return readerSelect.value || undefined;
}

function updateButtons() {
  const reader = selectedReader();
  const pending = currentPayment?.status === 'pending';
  startButton.disabled = !reader || pending;
  terminateButton.disabled = !reader || !pending;
  for (const button of simulatorButtons) button.disabled = !reader;
}

async function loadReaders(select) {
  const result = await api('GET', '/in-person/api/readers');
  if (!result.ok) {
    readersNote.textContent = 'Readers could not be loaded.';
    showError(result);
    return;
  }
  const readers = result.body.readers;
  const paired = readers.filter((reader) => reader.status === 'paired');
  const previous = select ?? readerSelect.value;
  readerSelect.replaceChildren(
    ...paired.map((reader) => {
      const option = document.createElement('option');
      option.value = reader.id;
      option.textContent = reader.name;
      return option;
    }),
  );
  if (paired.some((reader) => reader.id === previous)) readerSelect.value = previous;
  readerSelect.disabled = paired.length === 0;
  const waiting = readers.length - paired.length;
  readersNote.textContent =
    paired.length === 0
      ? root.dataset.simulator === 'on'
        ? 'No paired reader yet: add a simulated one below.'
        : 'No paired reader yet: pair one with the code its screen shows.'
      : `${paired.length} paired reader${paired.length === 1 ? '' : 's'}${
          waiting > 0 ? `, ${waiting} not (yet) paired` : ''
        }.`;
  updateButtons();
}

function showPayment(payment) {
  currentPayment = payment;
  paymentBox.hidden = false;
  $('payment-id').textContent = payment.id;
  $('payment-amount').textContent = `${payment.amount} ${payment.currency}`;
  statusOutput.dataset.status = payment.status;
  statusOutput.textContent =
    payment.status === 'pending' ? 'pending: waiting for the cardholder' : payment.status;
  updateButtons();
}

function poll() {
  clearTimeout(pollTimer);
  if (currentPayment?.status !== 'pending') return;
  const id = currentPayment.id;
  pollTimer = setTimeout(async () => {
    const result = await api('GET', `/in-person/api/payments/${encodeURIComponent(id)}`);
    // A newer checkout may have started meanwhile; this answer is then stale.
    if (currentPayment?.id !== id) return;
    if (result.ok) showPayment(result.body.payment);
    poll();
  }, POLL_MS);
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const reader = selectedReader();
  if (!reader) return;
  clearError();
  startButton.disabled = true;
  const result = await api(
    'POST',
    `/in-person/api/readers/${encodeURIComponent(reader)}/checkout`,
    {
      amount: amountInput.value,
    },
  );
  if (!result.ok) {
    showError(result);
    if (result.body?.error?.field === 'amount') amountInput.focus();
    updateButtons();
    return;
  }
  showPayment(result.body.payment);
  poll();
});

terminateButton.addEventListener('click', async () => {
  const reader = selectedReader();
  if (!reader) return;
  clearError();
  terminateButton.disabled = true;
  const result = await api(
    'POST',
    `/in-person/api/readers/${encodeURIComponent(reader)}/terminate`,
  );
  if (!result.ok) showError(result);
  // The failed result arrives by webhook; polling goes on until it does.
  updateButtons();
});

readerSelect.addEventListener('change', updateButtons);
$('refresh-readers').addEventListener('click', () => loadReaders());

// The simulator panel exists only when the server talks to the sandbox.
$('add-reader')?.addEventListener('click', async (event) => {
  const button = event.currentTarget;
  clearError();
  button.disabled = true;
  simulatorNote.textContent = 'Switching on a simulated reader and pairing it…';
  const result = await api('POST', '/in-person/api/simulator/readers');
  button.disabled = false;
  if (!result.ok) {
    simulatorNote.textContent = '';
    showError(result);
    return;
  }
  simulatorNote.textContent = `${result.body.reader.name} is ${result.body.reader.status}.`;
  await loadReaders(result.body.reader.id);
});

const SIMULATOR_ACTIONS = {
  'present-card': () => ({ action: 'present-card', body: { pin: $('with-pin').checked } }),
  'enter-pin': () => ({ action: 'enter-pin', body: {} }),
  'go-offline': () => ({ action: 'offline', body: {} }),
  'go-online': () => ({ action: 'online', body: {} }),
};

for (const button of simulatorButtons) {
  button.addEventListener('click', async () => {
    const reader = selectedReader();
    if (!reader) return;
    clearError();
    const { action, body } = SIMULATOR_ACTIONS[button.id]();
    const result = await api(
      'POST',
      `/in-person/api/simulator/readers/${encodeURIComponent(reader)}/${action}`,
      body,
    );
    if (!result.ok) {
      showError(result);
      return;
    }
    const screen = result.body.screen;
    simulatorNote.textContent = `Device ${result.body.online ? 'online' : 'offline'}, screen: ${String(
      screen,
    ).replaceAll('_', ' ')}.`;
  });
}

loadReaders();
