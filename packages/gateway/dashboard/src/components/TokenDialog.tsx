import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { isUnauthorized, onUnauthorized, setToken } from '../api/http';
import { Dialog } from './Dialog';

/**
 * Asks for a gateway token when the gateway refuses a request for want of one (a gateway bound beyond
 * loopback requires tokens; `boxagnts token create <name>` makes one). The token is kept in this
 * browser's local storage and sent as a bearer header; it never appears in the page.
 */
export function TokenDialog() {
  const [open, setOpen] = useState(isUnauthorized());
  const [value, setValue] = useState('');
  const queryClient = useQueryClient();
  useEffect(() => onUnauthorized(() => setOpen(isUnauthorized())), []);
  return (
    <Dialog open={open} title="Gateway token">
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          setToken(value.trim());
          setValue('');
          setOpen(false);
          void queryClient.invalidateQueries();
        }}
      >
        <p>
          This gateway needs a token. Create one with <code>boxagnts token create &lt;name&gt;</code> and paste it here;
          it stays in this browser.
        </p>
        <label className="field">
          <span>Token</span>
          <input
            type="password"
            autoComplete="off"
            required
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        </label>
        <div className="row">
          <button type="submit" className="btn btn-primary">
            Use this token
          </button>
        </div>
      </form>
    </Dialog>
  );
}
