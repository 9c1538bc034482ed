import { BadRequestException, ValidationPipe, type ValidationError } from '@nestjs/common';

const flatten = (errors: ValidationError[], prefix = ''): Array<{ field: string; message: string }> =>
  errors.flatMap((e) => {
    const field = `${prefix}${e.property}`;
    const constraints = e.constraints ?? {};
    // An unknown field gets one clear sentence instead of class-validator's wording.
    if (constraints.whitelistValidation) return [{ field, message: `Unknown field: ${field}` }];
    // class-validator lists constraints bottom-up; the first declared rule is the one to show.
    const own = Object.values(constraints).reverse().slice(0, 1).map((message) => ({ field, message }));
    return [...own, ...flatten(e.children ?? [], `${field}.`)];
  });

/**
 * DTOs whitelist their fields: unknown or privileged fields are a 400, never silently dropped.
 * The message is the first problem's text (the spec's wording lives in the DTOs), `details`
 * lists every problem by field.
 */
export const createValidationPipe = () =>
  new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const details = flatten(errors);
      return new BadRequestException({ message: details[0]?.message ?? 'Invalid request', details });
    },
  });
