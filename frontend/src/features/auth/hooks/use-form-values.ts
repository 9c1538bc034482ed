import { useState, type ChangeEvent } from 'react';
import { hasErrors, type FieldErrors } from '../lib/validation';

/**
 * Form values with validation: messages appear after the first submit attempt and then follow
 * every edit, so a fixed field stops complaining at once.
 */
export function useFormValues<T extends Record<string, string>>(initial: T, validate: (values: T) => FieldErrors<T>) {
  const [values, setValues] = useState<T>(initial);
  const [submitted, setSubmitted] = useState(false);
  const errors: FieldErrors<T> = submitted ? validate(values) : {};

  const bind = (name: keyof T & string) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  /** Marks the form submitted; true when the values pass validation. */
  const check = (): boolean => {
    setSubmitted(true);
    return !hasErrors(validate(values));
  };

  return { values, bind, check };
}
