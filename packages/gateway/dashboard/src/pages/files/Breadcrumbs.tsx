import { breadcrumbsOf } from './file-paths';

/** Where the listing is, from root/: each folder above is a button that opens it. */
export function Breadcrumbs({ path, onOpen }: { path: string; onOpen: (path: string) => void }) {
  const crumbs = breadcrumbsOf(path);
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol>
        {crumbs.map((crumb, index) => (
          <li key={crumb.path}>
            {index === crumbs.length - 1 ? (
              <span aria-current="location">{crumb.label}</span>
            ) : (
              <button type="button" className="link-button" onClick={() => onOpen(crumb.path)}>
                {crumb.label}
              </button>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
