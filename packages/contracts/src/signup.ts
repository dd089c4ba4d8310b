import { z } from 'zod';
import { adminErrorMessages } from './admin';
import { errorMessages } from './errors';
import { passwordPolicy } from './identity';
import { passwordResetLimits } from './password-reset';

/**
 * Sign-up's own error texts (commerce §5 Sign-up, §8 Sign-in and sign-up). The server answers
 * them in `message`; the web app shows the locale's version, found by text.
 */
export const signupErrorMessages = {
  nameRequired: 'Name is required',
  emailInvalid: adminErrorMessages.emailInvalid,
  emailTaken: adminErrorMessages.emailTaken,
  phoneInvalid: 'Invalid phone number',
  wabaPhoneTaken: 'Phone number already registered on a WABA account',
  passwordFormat: errorMessages.passwordFormat,
  passwordNotMatch: adminErrorMessages.passwordNotMatch,
  referralCodeInvalid: 'Invalid referral code',
  storeNameRequired: 'Store name is required',
  businessFieldsRequired: 'Choose at least one business field',
  businessFieldsTooMany: 'Choose at most 3 business fields',
  sessionTimedOut: errorMessages.resetSessionTimedOut,
} as const;

/**
 * The e-mailed code of sign-up: the same shape and limits as forgot password's (six digits,
 * ten minutes, one use, five tries, a 60 s resend countdown, five codes an hour per e-mail).
 * The continue token then keeps the later steps open for an hour.
 */
export const signupLimits = { ...passwordResetLimits, continueTokenTtlSeconds: 3600 } as const;

/** Days of the free trial a new client starts with (commerce §7 Subscription). */
export const freeTrialDays = 30;

/** The business fields of the store step (commerce §6 Business/store); at most three. */
export const businessFields = [
  'TOYS_HOBBIES',
  'BUILDING_MATERIALS',
  'BEAUTY_HEALTH',
  'ANIMALS',
  'CLOTHING',
  'VIRTUAL_PRODUCT',
  'FOOD_DRINK',
  'GROCERY',
  'FURNITURE',
  'ELECTRONICS',
  'AUTOMOTIVE',
  'FARMING',
  'SERVICES',
  'OTHERS',
] as const;
export const maxBusinessFields = 3;

/** The store's legal form; the spec names the field only, so the product offers these three. */
export const businessTypes = ['INDIVIDUAL', 'SMALL_BUSINESS', 'COMPANY'] as const;
/** The store's mode: a restaurant or an online shop (commerce §6). */
export const businessModes = ['RESTAURANT', 'ONLINE_SHOP'] as const;
/** The free trial, then the premium packages (core-inbox §1: PRO, STARTER and ENTERPRISE). */
export const subscriptionPackages = ['FREE_TRIAL', 'STARTER', 'PRO', 'ENTERPRISE'] as const;
export type SubscriptionPackage = (typeof subscriptionPackages)[number];

/**
 * A phone number as typed (spaces, dashes, +62 or 0 first) in one canonical form: digits
 * only, Indonesian numbers starting 62, so one number is always stored the same way.
 */
export const signupPhone = z
  .string()
  .trim()
  .transform((value) => value.replace(/[\s-]/g, ''))
  .pipe(z.string().regex(/^\+?\d{8,15}$/, signupErrorMessages.phoneInvalid))
  .transform((value) => value.replace(/^\+/, '').replace(/^0/, '62'));

/** The account step, validated alike by the form and (in the service) by the server. */
export const signupAccountBody = z
  .object({
    name: z.string().trim().min(1, signupErrorMessages.nameRequired).max(100),
    email: z.string().trim().max(254).pipe(z.email(signupErrorMessages.emailInvalid)),
    phone: signupPhone,
    password: z
      .string()
      .refine((value) => passwordPolicy.safeParse(value).success, signupErrorMessages.passwordFormat),
    confirmPassword: z.string().max(128),
    referralCode: z
      .string()
      .trim()
      .max(32)
      .regex(/^[A-Za-z0-9_-]*$/, signupErrorMessages.referralCodeInvalid)
      .optional()
      .transform((value) => (value ? value.toUpperCase() : undefined)),
  })
  .refine((body) => body.password === body.confirmPassword, {
    path: ['confirmPassword'],
    message: signupErrorMessages.passwordNotMatch,
  });
export type SignupAccountBody = z.input<typeof signupAccountBody>;

/** The wire shape of POST /api/identity/signup/account: strings only, the rules run in the service. */
export const signupAccountRequest = z.object({
  name: z.string().max(200),
  email: z.string().max(300),
  phone: z.string().max(40),
  password: z.string().max(256),
  confirmPassword: z.string().max(256),
  referralCode: z.string().max(64).optional(),
});

/** A code went out: the request to verify against, and the countdowns the screen shows. */
export const signupCodeResponse = z.object({
  signupId: z.string().uuid(),
  resendInSeconds: z.number().int(),
  expiresInSeconds: z.number().int(),
});
export type SignupCodeResponse = z.infer<typeof signupCodeResponse>;

/** POST /api/identity/signup/resend: a new code replaces the request's old one. */
export const signupResendBody = z.object({ signupId: z.string().uuid() });
export type SignupResendBody = z.infer<typeof signupResendBody>;

/** POST /api/identity/signup/verify */
export const signupVerifyBody = z.object({
  signupId: z.string().uuid(),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, errorMessages.otpIncorrect),
});
export type SignupVerifyBody = z.infer<typeof signupVerifyBody>;

/** The token that lets the store, WABA and subscription steps finish the sign-up. */
export const signupVerifyResponse = z.object({
  continueToken: z.string(),
  expiresInSeconds: z.number().int(),
});
export type SignupVerifyResponse = z.infer<typeof signupVerifyResponse>;

/** The store step (commerce §6): name, one to three business fields, type and mode. */
export const signupStore = z.object({
  name: z.string().trim().min(1, signupErrorMessages.storeNameRequired).max(100),
  businessFields: z
    .array(z.enum(businessFields))
    .min(1, signupErrorMessages.businessFieldsRequired)
    .max(maxBusinessFields, signupErrorMessages.businessFieldsTooMany)
    .refine((fields) => new Set(fields).size === fields.length, signupErrorMessages.businessFieldsTooMany),
  businessType: z.enum(businessTypes),
  businessMode: z.enum(businessModes),
});
export type SignupStore = z.infer<typeof signupStore>;

/** The WABA step: the WhatsApp Business number, or null when the step was skipped. */
export const signupWaba = z.object({ phone: signupPhone }).nullable();

/** POST /api/identity/signup/complete: everything after the code, in one call. */
export const signupCompleteBody = z.object({
  signupId: z.string().uuid(),
  continueToken: z.string().min(1).max(200),
  store: signupStore,
  waba: signupWaba,
  subscription: z.object({ package: z.enum(subscriptionPackages).default('FREE_TRIAL') }),
});
export type SignupCompleteBody = z.input<typeof signupCompleteBody>;

/** One message of the development mailbox (mail that has no client yet, e.g. sign-up codes). */
export const devMailboxEntry = z.object({
  id: z.string().uuid(),
  recipient: z.string(),
  subject: z.string(),
  text: z.string(),
  status: z.enum(['PENDING', 'SENT', 'KEPT', 'FAILED']),
  createdAt: z.string(),
});
/** GET /api/dev/mailbox?recipient=: newest first, at most 20. */
export const devMailboxQuery = z.object({ recipient: z.string().trim().max(254).optional() });
export const devMailboxResponse = z.object({ content: z.array(devMailboxEntry) });
export type DevMailboxResponse = z.infer<typeof devMailboxResponse>;
