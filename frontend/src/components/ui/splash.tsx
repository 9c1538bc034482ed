import { Logo } from './logo';
import { Spinner } from './spinner';

/** Shown while the app finds out who is signed in or loads its first screen. */
export function Splash() {
  return (
    <div className="splash">
      <Logo />
      <Spinner />
    </div>
  );
}
