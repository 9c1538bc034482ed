import { useId } from 'react';
import './switch.css';

export interface SwitchProps {
  label: string;
  /** The switch's name where the label alone is shared by several (a group's "Push"). */
  accessibleName?: string;
  description?: string;
  checked: boolean;
  disabled?: boolean;
  onCheckedChange: (checked: boolean) => void;
}

/** An on/off switch with its label and explanation, announced as a switch. */
export function Switch({ label, accessibleName, description, checked, disabled, onCheckedChange }: SwitchProps) {
  const id = useId();
  return (
    <div className="switch-row">
      <div className="switch-row__text">
        <label className="switch-row__label" htmlFor={id}>
          {label}
        </label>
        {description ? (
          <p className="switch-row__description" id={`${id}-description`}>
            {description}
          </p>
        ) : null}
      </div>
      <button
        type="button"
        role="switch"
        id={id}
        className="switch"
        aria-checked={checked}
        aria-label={accessibleName}
        aria-describedby={description ? `${id}-description` : undefined}
        disabled={disabled}
        onClick={() => onCheckedChange(!checked)}
      >
        <span className="switch__thumb" aria-hidden="true" />
      </button>
    </div>
  );
}
