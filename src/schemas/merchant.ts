// The merchant account objects (`/v0.1/me` and its parts). Server-side only;
// every field is optional because the seed marks none required.
import * as z from 'zod/mini';
import { maybe, type Named } from './common.ts';
import { PermissionsSchema } from './operator.ts';

const merchantAddressObject = z.object({
  address_line1: maybe(z.string()),
  address_line2: maybe(z.string()),
  city: maybe(z.string()),
  country: maybe(z.string()),
  region_id: maybe(z.number()),
  region_name: maybe(z.string()),
  region_code: maybe(z.string()),
  post_code: maybe(z.string()),
  landline: maybe(z.string()),
  first_name: maybe(z.string()),
  last_name: maybe(z.string()),
  company: maybe(z.string()),
  state_id: maybe(z.string()),
  country_details: maybe(
    z.object({
      currency: maybe(z.string()),
      iso_code: maybe(z.string()),
      en_name: maybe(z.string()),
      native_name: maybe(z.string()),
    }),
  ),
  timeoffset_details: maybe(
    z.object({
      post_code: maybe(z.string()),
      offset: maybe(z.number()),
      dst: maybe(z.boolean()),
    }),
  ),
});
/** Merchant and personal-profile address; not the customer address (other field names). */
export interface MerchantAddressSchema extends Named<typeof merchantAddressObject> {}
export const MerchantAddressSchema: MerchantAddressSchema = merchantAddressObject;
export type MerchantAddress = z.infer<typeof MerchantAddressSchema>;

const personalProfileObject = z.object({
  first_name: maybe(z.string()),
  last_name: maybe(z.string()),
  date_of_birth: maybe(z.string()),
  mobile_phone: maybe(z.string()),
  address: maybe(MerchantAddressSchema),
  complete: maybe(z.boolean()),
});
export interface PersonalProfileSchema extends Named<typeof personalProfileObject> {}
export const PersonalProfileSchema: PersonalProfileSchema = personalProfileObject;
export type PersonalProfile = z.infer<typeof PersonalProfileSchema>;

const doingBusinessAsObject = z.object({
  business_name: maybe(z.string()),
  company_registration_number: maybe(z.string()),
  vat_id: maybe(z.string()),
  website: maybe(z.string()),
  email: maybe(z.string()),
  // The seed gives the doing-business-as address a subset of the merchant address's fields.
  address: maybe(
    z.pick(MerchantAddressSchema, {
      address_line1: true,
      address_line2: true,
      city: true,
      country: true,
      region_id: true,
      region_name: true,
      post_code: true,
    }),
  ),
});
export interface DoingBusinessAsSchema extends Named<typeof doingBusinessAsObject> {}
export const DoingBusinessAsSchema: DoingBusinessAsSchema = doingBusinessAsObject;
export type DoingBusinessAs = z.infer<typeof DoingBusinessAsSchema>;

const merchantSettingsObject = z.looseObject({
  tax_enabled: maybe(z.boolean()),
  payout_type: maybe(z.string()),
  payout_period: maybe(z.string()),
  payout_on_demand_available: maybe(z.boolean()),
  payout_on_demand: maybe(z.boolean()),
  printers_enabled: maybe(z.boolean()),
  payout_instrument: maybe(z.string()),
  moto_payment: maybe(z.enum(['UNAVAILABLE', 'ENFORCED', 'ON', 'OFF'])),
  daily_payout_email: maybe(z.boolean()),
  monthly_payout_email: maybe(z.boolean()),
  gross_settlement: maybe(z.boolean()),
});
/**
 * Loose on purpose: the acquirer's merchant code arrives under a key named
 * after the acquirer (`<acquirer>_merchant_code`), which a closed object would drop.
 */
export interface MerchantSettingsSchema extends Named<typeof merchantSettingsObject> {}
export const MerchantSettingsSchema: MerchantSettingsSchema = merchantSettingsObject;
export type MerchantSettings = z.infer<typeof MerchantSettingsSchema>;

const bankAccountObject = z.object({
  bank_code: maybe(z.string()),
  branch_code: maybe(z.string()),
  swift: maybe(z.string()),
  account_number: maybe(z.string()),
  iban: maybe(z.string()),
  account_type: maybe(z.string()),
  account_category: maybe(z.string()),
  account_holder_name: maybe(z.string()),
  status: maybe(z.string()),
  primary: maybe(z.boolean()),
  created_at: maybe(z.string()),
  bank_name: maybe(z.string()),
});
export interface BankAccountSchema extends Named<typeof bankAccountObject> {}
export const BankAccountSchema: BankAccountSchema = bankAccountObject;
export type BankAccount = z.infer<typeof BankAccountSchema>;

export const BankAccountListSchema = z.array(BankAccountSchema);

const merchantProfileObject = z.object({
  merchant_code: maybe(z.string()),
  company_name: maybe(z.string()),
  website: maybe(z.string()),
  legal_type: maybe(
    z.object({
      id: maybe(z.number()),
      full_description: maybe(z.string()),
      description: maybe(z.string()),
      sole_trader: maybe(z.boolean()),
    }),
  ),
  merchant_category_code: maybe(z.string()),
  mobile_phone: maybe(z.string()),
  company_registration_number: maybe(z.string()),
  vat_id: maybe(z.string()),
  permanent_certificate_access_code: maybe(z.string()),
  nature_and_purpose: maybe(z.string()),
  address: maybe(MerchantAddressSchema),
  business_owners: maybe(
    z.array(
      z.object({
        first_name: maybe(z.string()),
        last_name: maybe(z.string()),
        date_of_birth: maybe(z.string()),
        mobile_phone: maybe(z.string()),
        landline: maybe(z.string()),
        ownership: maybe(z.number()),
      }),
    ),
  ),
  doing_business_as: maybe(DoingBusinessAsSchema),
  settings: maybe(MerchantSettingsSchema),
  vat_rates: maybe(
    z.object({
      id: maybe(z.number()),
      description: maybe(z.string()),
      rate: maybe(z.number()),
      ordering: maybe(z.number()),
      country: maybe(z.string()),
    }),
  ),
  locale: maybe(z.string()),
  bank_accounts: maybe(z.array(BankAccountSchema)),
  extdev: maybe(z.boolean()),
  payout_zone_migrated: maybe(z.boolean()),
  country: maybe(z.string()),
});
export interface MerchantProfileSchema extends Named<typeof merchantProfileObject> {}
export const MerchantProfileSchema: MerchantProfileSchema = merchantProfileObject;
export type MerchantProfile = z.infer<typeof MerchantProfileSchema>;

export const AppSettingsSchema = z.object({
  checkout_preference: maybe(z.string()),
  include_vat: maybe(z.boolean()),
  manual_entry_tutorial: maybe(z.boolean()),
  mobile_payment_tutorial: maybe(z.boolean()),
  tax_enabled: maybe(z.boolean()),
  mobile_payment: maybe(z.string()),
  reader_payment: maybe(z.string()),
  cash_payment: maybe(z.string()),
  advanced_mode: maybe(z.string()),
  expected_max_transaction_amount: maybe(z.number()),
  manual_entry: maybe(z.string()),
  terminal_mode_tutorial: maybe(z.boolean()),
  tipping: maybe(z.string()),
  tip_rates: maybe(z.array(z.number())),
  barcode_scanner: maybe(z.string()),
  referral: maybe(z.string()),
});
export type AppSettings = z.infer<typeof AppSettingsSchema>;

export const MerchantAccountSchema = z.object({
  account: maybe(
    z.object({
      username: maybe(z.string()),
      type: maybe(z.enum(['normal', 'operator'])),
    }),
  ),
  personal_profile: maybe(PersonalProfileSchema),
  merchant_profile: maybe(MerchantProfileSchema),
  app_settings: maybe(AppSettingsSchema),
  permissions: maybe(PermissionsSchema),
});
export type MerchantAccount = z.infer<typeof MerchantAccountSchema>;
