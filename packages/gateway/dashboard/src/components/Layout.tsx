import { NavLink, Outlet } from 'react-router';
import { pages } from '../routes';
import { ThemeToggle } from './ThemeToggle';
import { TokenDialog } from './TokenDialog';

/** The frame of every page: a skip link, the navigation, the page in `<main>`, the token dialog. */
export function Layout() {
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <span className="brand">BoxAgnts</span>
        <nav aria-label="Pages" className="app-nav">
          {pages.map((page) => (
            <NavLink key={page.path} to={`/${page.path}`} className="nav-link">
              {page.label}
            </NavLink>
          ))}
        </nav>
        <ThemeToggle />
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
      <TokenDialog />
    </div>
  );
}
