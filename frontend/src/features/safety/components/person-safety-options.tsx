import { lazy } from 'react';
import { OnDemandMenu } from '../../../components/ui/on-demand-menu';
import './person-safety-options.css';

export interface PersonSafetyMenuProps {
  personId: string;
  /** The person's display name, as the menu and the confirmation name them. */
  name: string;
  /** After a block: the page leaves the profile (it is gone for both) and refreshes what may show them. */
  onBlocked: () => void;
  /** After a mute or an unmute: the page refreshes its feeds. */
  onMuteChanged?: () => void;
}

/** The button's class and name, the same before and after its menu's code has loaded. */
export const PERSON_SAFETY_CLASS = 'button button--secondary safety-menu__trigger';
export const personSafetyLabel = (name: string) => `More options for ${name}`;

const loadMenu = () => import('./person-safety-menu');
const PersonSafetyMenu = lazy(loadMenu);

/** Mute and Block on someone else's profile; the menu and its confirmation load on first use. */
export function PersonSafetyOptions(props: PersonSafetyMenuProps) {
  return (
    <OnDemandMenu label={personSafetyLabel(props.name)} className={PERSON_SAFETY_CLASS} popup="menu" preload={() => void loadMenu()}>
      <PersonSafetyMenu {...props} />
    </OnDemandMenu>
  );
}
