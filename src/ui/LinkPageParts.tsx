/**
 * What the pages a link in an e-mail opens (/unsubscribe, /updates/confirm) share: the server out of
 * reach, a refusal in the server's words, and the way home.
 */

export const SERVER_UNREACHABLE = 'We could not reach the server. Please check your connection and try again.';

/** A refusal or failure, announced; nothing when there is none. */
export function FormAlert({ message }: { message: string | undefined }) {
  return message ? (
    <p role="alert" className="form-error">
      {message}
    </p>
  ) : null;
}

export function BackHome() {
  return (
    <p className="account-links">
      <a href="/">Back to Home</a>
    </p>
  );
}
