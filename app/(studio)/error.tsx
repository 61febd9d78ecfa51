/** A page that failed to render: what happened, and a button to try again. */
'use client';
import { ErrorNote } from '../../components/ui/error-note.tsx';

export default function StudioError({ error, reset }: { error: Error; reset: () => void }) {
  return <ErrorNote title="This page failed to show" error={error} onRetry={reset} />;
}
