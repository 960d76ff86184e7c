import { Outlet, useLocation } from 'react-router';

/** Public pages fade in: 0.15 s, the intro 0.2 s (spec part 2 "Route table"). */
export function PublicLayout() {
  const { pathname } = useLocation();
  return (
    <div key={pathname} className={pathname === '/intro' ? 'page-fade-intro' : 'page-fade'}>
      <Outlet />
    </div>
  );
}
