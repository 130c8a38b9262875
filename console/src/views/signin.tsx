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
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };
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
        <button type="submit" disabled={busy}>
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
