/** Every signed-in page: the studio frame (sign-in check, live connection, navigation). */
import type { ReactNode } from 'react';
import { StudioFrame } from '../../components/shell/studio-frame.tsx';

export default function StudioLayout({ children }: { children: ReactNode }) {
  return <StudioFrame>{children}</StudioFrame>;
}
