export interface TimelineOptionsProps {
  timelineId: string;
  title: string;
  isCreator: boolean;
  onReport: () => void;
}

/** The options button's look and name, the same before and after its menu's code has loaded. */
export function optionsTrigger(title: string) {
  return { className: 'icon-button feed-card__menu', 'aria-label': `Options for ${title}` };
}
