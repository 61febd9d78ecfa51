/** The studio's pages (STUDIO.md) as the navigation shows them, with the permission each needs. */
import type { Permission } from '../data/roles.ts';
import type { IconName } from '../ui/icons.tsx';

export interface NavItem {
  href: string;
  label: string;
  icon: IconName;
  needs: Permission;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { href: '/', label: 'Overview', icon: 'home', needs: 'read' },
  { href: '/models', label: 'Models', icon: 'workflow', needs: 'read' },
  { href: '/runs', label: 'Runs', icon: 'activity', needs: 'read' },
  { href: '/inbox', label: 'Inbox', icon: 'inbox', needs: 'operate' },
  { href: '/schedules', label: 'Schedules', icon: 'calendar', needs: 'read' },
  { href: '/packages', label: 'Packages', icon: 'plug', needs: 'read' },
  { href: '/health', label: 'Health', icon: 'heart', needs: 'read' },
  { href: '/admin/users', label: 'Users', icon: 'users', needs: 'admin' },
  { href: '/admin/secrets', label: 'Secrets', icon: 'key', needs: 'admin' },
];

/** Whether `item` is the page at `pathname` (or one of its sub-pages). */
export function isActive(item: NavItem, pathname: string): boolean {
  if (item.href === '/') return pathname === '/';
  return pathname === item.href || pathname.startsWith(`${item.href}/`);
}
