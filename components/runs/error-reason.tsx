/** An error's code in bold, then its message; no code and no separator when the code is empty (format.ts `errorReason`). */
export function ErrorReason({ err }: { err: { ecode: string; message: string } }) {
  return (
    <>
      {err.ecode ? (
        <>
          <strong>{err.ecode}</strong>:{' '}
        </>
      ) : null}
      {err.message}
    </>
  );
}
