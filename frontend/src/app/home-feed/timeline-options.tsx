import { lazy } from 'react';
import { OnDemandMenu } from '../../components/ui/on-demand-menu';
import { useIsMobile } from '../../features/feed/hooks/use-is-mobile';
import { optionsTrigger, type TimelineOptionsProps } from './options-trigger';

export type { TimelineOptionsProps } from './options-trigger';

const loadMenu = () => import('./timeline-options-menu');
const TimelineOptionsMenu = lazy(loadMenu);

/** A timeline card's options button; its menu (a dropdown, or a bottom sheet on a phone) loads on first use. */
export function TimelineOptions(props: TimelineOptionsProps) {
  const mobile = useIsMobile();
  const trigger = optionsTrigger(props.title);
  return (
    <OnDemandMenu label={trigger['aria-label']} className={trigger.className} popup={mobile ? 'dialog' : 'menu'} preload={() => void loadMenu()}>
      <TimelineOptionsMenu {...props} />
    </OnDemandMenu>
  );
}
