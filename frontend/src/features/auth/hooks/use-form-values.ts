import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { hasErrors, type FieldErrors } from '../lib/validation';

/**
 * Form values with validation: messages appear after the first submit attempt and then follow
 * every edit, so a fixed field stops complaining at once. A refused submit moves focus to the
 * first field with a message (`formRef` on the form), where the person fixes it.
 */
export function useFormValues<T extends Record<string, string>>(initial: T, validate: (values: T) => FieldErrors<T>) {
  const [values, setValues] = useState<T>(initial);
  const [submitted, setSubmitted] = useState(false);
  const [refused, setRefused] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const errors: FieldErrors<T> = submitted ? validate(values) : {};
  useEffect(() => {
    if (refused > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refused]);

  const bind = (name: keyof T & string) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  /** Marks the form submitted; true when the values pass validation. */
  const check = (): boolean => {
    setSubmitted(true);
    const valid = !hasErrors(validate(values));
    if (!valid) setRefused((count) => count + 1);
    return valid;
  };

  return { values, bind, check, formRef };
}
