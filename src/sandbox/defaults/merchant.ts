// The default merchant's account data (`/v0.1/me` and its parts), realistic for its country:
// a local address, currency, locale, VAT rate and bank account format. Every section can be
// overridden through `SandboxOptions.merchant`; an override replaces the fields it names and
// keeps the rest (bank accounts are replaced as a whole list).

import type {
  AppSettings,
  BankAccount,
  DoingBusinessAs,
  MerchantAddress,
  MerchantProfile,
  MerchantSettings,
  Permissions,
  PersonalProfile,
} from '../../schemas/index.ts';

/** What the merchant endpoints serve; the profile's nested sections live beside it. */
export interface MerchantSeed {
  username: string;
  personal_profile: PersonalProfile;
  /** Without settings, doing_business_as and bank_accounts (kept below). */
  merchant_profile: MerchantProfile;
  doing_business_as: DoingBusinessAs;
  settings: MerchantSettings;
  bank_accounts: BankAccount[];
  app_settings: AppSettings;
  permissions: Permissions;
  /** Currency the merchant settles in (reader checkouts accept only this one). */
  currency: string;
}

/** `SandboxOptions.merchant`: sections to override in the default data. */
export interface MerchantOverrides {
  personal_profile?: Partial<PersonalProfile>;
  merchant_profile?: Partial<MerchantProfile>;
  doing_business_as?: Partial<DoingBusinessAs>;
  settings?: Partial<MerchantSettings>;
  bank_accounts?: BankAccount[];
  app_settings?: Partial<AppSettings>;
}

interface CountryPreset {
  currency: string;
  locale: string;
  enName: string;
  nativeName: string;
  city: string;
  street: string;
  postCode: string;
  landline: string;
  mobile: string;
  vatRate: number;
  /** UTC offset in hours, standard time. */
  offset: number;
  dst: boolean;
  firstName: string;
  lastName: string;
  legalType: { id: number; full_description: string; description: string; sole_trader: boolean };
  registration: string;
  vatId: string;
  banks: BankAccount[];
}

// Addresses, IBANs and phone numbers are the documented example/test values of each country
// (e.g. DE89 3704 0044 0532 0130 00 is the IBAN standard's German example), never real ones.
const PRESETS: Record<string, CountryPreset> = {
  DE: {
    currency: 'EUR',
    locale: 'de-DE',
    enName: 'Germany',
    nativeName: 'Deutschland',
    city: 'Berlin',
    street: 'Musterstraße 12',
    postCode: '10115',
    landline: '+49 30 1234567',
    mobile: '+49 151 23456789',
    vatRate: 0.19,
    offset: 1,
    dst: true,
    firstName: 'Erika',
    lastName: 'Mustermann',
    legalType: {
      id: 3,
      full_description: 'Gesellschaft mit beschränkter Haftung (GmbH)',
      description: 'GmbH',
      sole_trader: false,
    },
    registration: 'HRB 123456 B',
    vatId: 'DE123456789',
    banks: [
      {
        bank_code: '37040044',
        swift: 'COBADEFFXXX',
        account_number: '0532013000',
        iban: 'DE89370400440532013000',
        bank_name: 'Commerzbank',
      },
      {
        bank_code: '50010517',
        swift: 'INGDDEFFXXX',
        account_number: '5407324931',
        iban: 'DE02500105175407324931',
        bank_name: 'ING-DiBa',
      },
    ],
  },
  GB: {
    currency: 'GBP',
    locale: 'en-GB',
    enName: 'United Kingdom',
    nativeName: 'United Kingdom',
    city: 'London',
    street: '1 Example Street',
    postCode: 'EC1A 1BB',
    landline: '+44 20 7946 0000',
    mobile: '+44 7700 900123',
    vatRate: 0.2,
    offset: 0,
    dst: true,
    firstName: 'Jane',
    lastName: 'Doe',
    legalType: {
      id: 21,
      full_description: 'Private limited company (Ltd)',
      description: 'Ltd',
      sole_trader: false,
    },
    registration: '01234567',
    vatId: 'GB123456789',
    banks: [
      {
        bank_code: 'BUKB',
        branch_code: '202015',
        swift: 'BUKBGB22',
        account_number: '55555555',
        iban: 'GB33BUKB20201555555555',
        bank_name: 'Barclays',
      },
    ],
  },
  US: {
    currency: 'USD',
    locale: 'en-US',
    enName: 'United States',
    nativeName: 'United States',
    city: 'San Francisco',
    street: '100 Example Avenue',
    postCode: '94105',
    landline: '+1 415 555 0100',
    mobile: '+1 415 555 0199',
    vatRate: 0,
    offset: -8,
    dst: true,
    firstName: 'John',
    lastName: 'Doe',
    legalType: {
      id: 40,
      full_description: 'Limited liability company (LLC)',
      description: 'LLC',
      sole_trader: false,
    },
    registration: '0123456',
    vatId: '12-3456789',
    banks: [
      {
        bank_code: '011000015',
        account_number: '000123456789',
        account_type: 'checking',
        bank_name: 'Example Bank',
      },
    ],
  },
  BR: {
    currency: 'BRL',
    locale: 'pt-BR',
    enName: 'Brazil',
    nativeName: 'Brasil',
    city: 'São Paulo',
    street: 'Avenida Paulista, 1000',
    postCode: '01310-100',
    landline: '+55 11 3000-0000',
    mobile: '+55 11 91234-5678',
    vatRate: 0,
    offset: -3,
    dst: false,
    firstName: 'Maria',
    lastName: 'Silva',
    legalType: {
      id: 50,
      full_description: 'Sociedade Limitada (Ltda.)',
      description: 'Ltda.',
      sole_trader: false,
    },
    registration: '12.345.678/0001-95',
    vatId: '12.345.678/0001-95',
    banks: [
      {
        bank_code: '001',
        branch_code: '1234',
        account_number: '12345-6',
        account_type: 'checking',
        bank_name: 'Banco do Brasil',
      },
    ],
  },
};

/** Currency of countries without a full preset (they borrow the German layout otherwise). */
const CURRENCY_BY_COUNTRY: Record<string, string> = {
  AT: 'EUR',
  BE: 'EUR',
  CL: 'CLP',
  CO: 'COP',
  CH: 'CHF',
  CZ: 'CZK',
  DK: 'DKK',
  ES: 'EUR',
  FI: 'EUR',
  FR: 'EUR',
  HU: 'HUF',
  IE: 'EUR',
  IT: 'EUR',
  NL: 'EUR',
  NO: 'NOK',
  PL: 'PLN',
  PT: 'EUR',
  SE: 'SEK',
};

function preset(country: string): CountryPreset {
  const known = PRESETS[country];
  if (known) return known;
  const base = PRESETS.DE!;
  return {
    ...base,
    currency: CURRENCY_BY_COUNTRY[country] ?? 'EUR',
    locale: `en-${country}`,
    enName: country,
    nativeName: country,
    vatId: `${country}123456789`,
    banks: base.banks.map(({ iban: _iban, ...bank }) => bank),
  };
}

export interface MerchantIdentity {
  merchantCode: string;
  merchantName: string;
  payToEmail: string;
  country: string;
}

export function buildMerchant(
  id: MerchantIdentity,
  overrides: MerchantOverrides = {},
): MerchantSeed {
  const p = preset(id.country);
  const address: MerchantAddress = {
    address_line1: p.street,
    city: p.city,
    country: id.country,
    post_code: p.postCode,
    landline: p.landline,
    country_details: {
      currency: p.currency,
      iso_code: id.country,
      en_name: p.enName,
      native_name: p.nativeName,
    },
    timeoffset_details: { post_code: p.postCode, offset: p.offset, dst: p.dst },
  };
  const website = 'https://shop.example.com';
  const doingBusinessAs: DoingBusinessAs = {
    business_name: id.merchantName,
    company_registration_number: p.registration,
    vat_id: p.vatId,
    website,
    email: id.payToEmail,
    address: {
      address_line1: p.street,
      city: p.city,
      country: id.country,
      post_code: p.postCode,
    },
  };
  const holder = `${id.merchantName}`;
  const bankAccounts: BankAccount[] = p.banks.map((bank, i) => ({
    ...bank,
    account_category: 'business',
    account_holder_name: holder,
    status: i === 0 ? 'VERIFIED' : 'PENDING',
    primary: i === 0,
    created_at: i === 0 ? '2023-03-01T09:30:00.000Z' : '2024-06-15T14:00:00.000Z',
  }));
  const settings: MerchantSettings = {
    tax_enabled: false,
    payout_type: 'BANK_ACCOUNT',
    payout_period: 'daily',
    payout_on_demand_available: true,
    payout_on_demand: false,
    printers_enabled: false,
    payout_instrument: 'BANK_ACCOUNT',
    moto_payment: 'UNAVAILABLE',
    // The provider names this key after its acquirer; the seed replaces that name with "acquirer".
    acquirer_merchant_code: `A${id.merchantCode}`,
    daily_payout_email: true,
    monthly_payout_email: true,
    gross_settlement: false,
  };
  const merchantProfile: MerchantProfile = {
    merchant_code: id.merchantCode,
    company_name: id.merchantName,
    website,
    legal_type: p.legalType,
    merchant_category_code: '5999',
    mobile_phone: p.mobile,
    company_registration_number: p.registration,
    vat_id: p.vatId,
    nature_and_purpose: 'Online and in-person retail',
    address,
    business_owners: [
      {
        first_name: p.firstName,
        last_name: p.lastName,
        date_of_birth: '1980-05-17',
        mobile_phone: p.mobile,
        landline: p.landline,
        ownership: 100,
      },
    ],
    vat_rates: {
      id: 1,
      description: 'Standard rate',
      rate: p.vatRate,
      ordering: 1,
      country: id.country,
    },
    locale: p.locale,
    extdev: false,
    payout_zone_migrated: true,
    country: id.country,
  };
  const personalProfile: PersonalProfile = {
    first_name: p.firstName,
    last_name: p.lastName,
    date_of_birth: '1980-05-17',
    mobile_phone: p.mobile,
    address: { ...address, first_name: p.firstName, last_name: p.lastName },
    complete: true,
  };
  const appSettings: AppSettings = {
    checkout_preference: 'DEFAULT',
    include_vat: p.vatRate > 0,
    manual_entry_tutorial: false,
    mobile_payment_tutorial: false,
    tax_enabled: false,
    mobile_payment: 'ENABLED',
    reader_payment: 'ENABLED',
    cash_payment: 'ENABLED',
    advanced_mode: 'DISABLED',
    expected_max_transaction_amount: 5000,
    manual_entry: 'DISABLED',
    terminal_mode_tutorial: false,
    tipping: 'ENABLED',
    tip_rates: [0.05, 0.1, 0.15],
    barcode_scanner: 'DISABLED',
    referral: 'DISABLED',
  };
  return {
    username: id.payToEmail,
    personal_profile: { ...personalProfile, ...overrides.personal_profile },
    merchant_profile: { ...merchantProfile, ...overrides.merchant_profile },
    doing_business_as: { ...doingBusinessAs, ...overrides.doing_business_as },
    settings: { ...settings, ...overrides.settings },
    bank_accounts: overrides.bank_accounts ?? bankAccounts,
    app_settings: { ...appSettings, ...overrides.app_settings },
    // The account owner holds every permission an operator can be given.
    permissions: {
      create_moto_payments: true,
      full_transaction_history_view: true,
      refund_transactions: true,
      create_referral: true,
    },
    currency: p.currency,
  };
}
