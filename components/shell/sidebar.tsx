/** The left navigation: brand, the pages this user may open (the Inbox with its live badge), then live status, theme and user. */
'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useMe } from '../data/auth.ts';
import { Icon } from '../ui/icons.tsx';
import { INBOX_BADGE_LABEL, InboxBadge } from './inbox-badge.tsx';
import { LiveIndicator } from './live-indicator.tsx';
import { isActive, NAV_ITEMS } from './nav-items.ts';
import styles from './sidebar.module.css';
import { ThemeToggle } from './theme-toggle.tsx';
import { UserMenu } from './user-menu.tsx';

export function Sidebar() {
  const pathname = usePathname();
  const me = useMe();
  const items = NAV_ITEMS.filter((item) => me.status !== 'signed-in' || me.can(item.needs));
  return (
    <aside className={styles.sidebar}>
      <Link href="/" className={styles.brand} aria-label="acts studio, overview">
        <span className={styles.logo} aria-hidden="true">
          <Icon name="workflow" size={16} />
        </span>
        <span className={styles.brandText}>acts studio</span>
      </Link>
      <nav aria-label="Pages" className={styles.nav}>
        <ul>
          {items.map((item) => {
            const active = isActive(item, pathname);
            const badge = item.href === '/inbox' && me.status === 'signed-in';
            return (
              <li key={item.href}>
                <Link href={item.href} className={styles.link} aria-current={active ? 'page' : undefined} title={item.label} aria-describedby={badge ? INBOX_BADGE_LABEL : undefined}>
                  <Icon name={item.icon} />
                  <span className={styles.linkText}>{item.label}</span>
                  {badge ? <InboxBadge /> : null}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className={styles.footer}>
        <LiveIndicator />
        <ThemeToggle />
        {me.status === 'signed-in' ? <UserMenu /> : <div className={styles.user} aria-hidden="true" />}
      </div>
    </aside>
  );
}
