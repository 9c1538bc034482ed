import * as AvatarPrimitive from '@radix-ui/react-avatar';
import { initials } from '../../lib/format';
import './avatar.css';

export interface AvatarProps {
  name: string;
  src?: string | null;
  size?: 'sm' | 'md' | 'lg';
}

/** A user's picture, or the first letters of up to two words of their name. */
export function Avatar({ name, src, size = 'md' }: AvatarProps) {
  return (
    <AvatarPrimitive.Root className={`avatar avatar--${size}`}>
      {src ? <AvatarPrimitive.Image className="avatar__image" src={src} alt="" /> : null}
      <AvatarPrimitive.Fallback className="avatar__fallback" delayMs={src ? 300 : 0}>
        {initials(name)}
      </AvatarPrimitive.Fallback>
    </AvatarPrimitive.Root>
  );
}
