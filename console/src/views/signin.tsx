/** Sign-in: an app id and its secret, checked by a signed GET /api/whoami. The secret is never stored or sent. */
import { useState } from 'preact/hooks';
import { type Session, signIn } from '../api.js';
import { ErrorBox } from '../parts/ui.js';

export function SignIn({ onSession }: { onSession: (s: Session) => void }) {
  const [error, setError] = useState<Error>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    setBusy(true);
    setError(undefined);
    try {
      const session = await signIn(String(data.get('appId')).trim(), String(data.get('secret')));
      form.reset(); // the secret leaves the form: from here on only a non-extractable key signs
      onSession(session);
    } catch (err) {
      (form.elements.namedItem('secret') as HTMLInputElement).value = ''; // a refused secret is not kept either
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };
  // Web Crypto exists only in a secure context: say so before anyone types a secret.
  const cannotSign = !globalThis.crypto?.subtle;
  return (
    <main class="signin">
      <h1>Tickwheel console</h1>
      <form method="post" onSubmit={(e) => void submit(e)} autocomplete="off">
        <label>
          App id
          <input name="appId" required minLength={3} maxLength={64} autofocus spellcheck={false} />
        </label>
        <label>
          Secret
          <input name="secret" type="password" required autocomplete="off" />
        </label>
        {cannotSign && (
          <p class="error" role="alert">
            This page cannot sign requests here: Web Crypto needs https, http://localhost or http://127.0.0.1.
          </p>
        )}
        <button type="submit" disabled={busy || cannotSign}>
          Sign in
        </button>
        <ErrorBox error={error} />
        <p class="hint">
          Requests are signed in this tab with Web Crypto; the secret never leaves it and is not stored. Reloading the
          page signs you out.
        </p>
      </form>
    </main>
  );
}
