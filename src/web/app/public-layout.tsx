import { Outlet, useLocation } from 'react-router';
import { pageFadeClass } from '../lib/page-fade';
import { ScreenShown } from '../lib/use-after-first-paint';

/** Public pages fade in when the trader moves to them: 0.15 s, the intro 0.2 s. */
export function PublicLayout() {
  const { pathname } = useLocation();
  return (
    <div key={pathname} className={pageFadeClass(pathname)}>
      <Outlet />
      <ScreenShown />
    </div>
  );
}
