import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type CardNetwork,
  detectNetwork,
  isCardNumber,
  networkRules,
} from '../../../src/card/index.ts';

// The provider's documented sandbox cards: each must read as its network
// and pass the number check, or no sandbox outcome can be reached through the widget.
const SANDBOX_CARDS: [string, CardNetwork][] = [
  ['4200000000000091', 'VISA'],
  ['4200000000000026', 'VISA'],
  ['5200000000000007', 'MASTERCARD'],
  ['5200000000000056', 'MASTERCARD'],
  ['4200000000000042', 'VISA'],
  ['4200000000000067', 'VISA'],
  ['5200000000000015', 'MASTERCARD'],
  ['5200000000000049', 'MASTERCARD'],
  ['4012001037461114', 'VISA'],
  ['5434580000000006', 'MASTERCARD'],
];

// Test numbers the networks and big acquirers publish for their own sandboxes.
const PUBLISHED_TEST_CARDS: [string, CardNetwork][] = [
  ['4111111111111111', 'VISA'],
  ['4012888888881881', 'VISA'],
  ['4000056655665556', 'VISA'],
  ['5555555555554444', 'MASTERCARD'],
  ['5105105105105100', 'MASTERCARD'],
  ['2223003122003222', 'MASTERCARD'],
  ['378282246310005', 'AMEX'],
  ['371449635398431', 'AMEX'],
  ['6011111111111117', 'DISCOVER'],
  ['6011000990139424', 'DISCOVER'],
  ['3530111333300000', 'JCB'],
  ['3566002020360505', 'JCB'],
  ['30569309025904', 'DINERS'],
  ['38520000023237', 'DINERS'],
  ['6200000000000005', 'CUP'],
  ['6759649826438453', 'MAESTRO'],
  ['6062825624254001', 'HIPERCARD'],
  ['6362970000457013', 'ELO'],
];

// Both ends of every range and the numbers just outside them, Luhn-valid, at the lengths
// the network issues: [number, network, the prefix the case is about].
const BOUNDARIES: [string, CardNetwork, string][] = [
  ['4000000000000002', 'VISA', '4'],
  ['4999000000000005', 'VISA', '4999'],
  ['4000000000000000006', 'VISA', '4'],
  ['400000000000000002', 'VISA', '4'],
  ['4025000000000003', 'VISA', '4025'],
  ['4027000000000001', 'VISA', '4027'],
  ['4174990000000004', 'VISA', '417499'],
  ['4175010000000000', 'VISA', '417501'],
  ['4011770000000007', 'VISA', '401177'],
  ['4011800000000002', 'VISA', '401180'],
  ['4936970000000005', 'VISA', '493697'],
  ['4936990000000003', 'VISA', '493699'],
  ['4026000000000002', 'VISA_ELECTRON', '4026'],
  ['4175000000000001', 'VISA_ELECTRON', '417500'],
  ['4405000000000003', 'VISA_ELECTRON', '4405'],
  ['4508000000000009', 'VISA_ELECTRON', '4508'],
  ['4844000000000002', 'VISA_ELECTRON', '4844'],
  ['4913000000000008', 'VISA_ELECTRON', '4913'],
  ['4917000000000004', 'VISA_ELECTRON', '4917'],
  ['5100000000000008', 'MASTERCARD', '51'],
  ['5500000000000004', 'MASTERCARD', '55'],
  ['2221000000000009', 'MASTERCARD', '2221'],
  ['2720000000000005', 'MASTERCARD', '2720'],
  ['2500000000000001', 'MASTERCARD', '2500'],
  ['2220000000000000', 'UNKNOWN', '2220'],
  ['2721000000000004', 'UNKNOWN', '2721'],
  ['5000000000000009', 'MAESTRO', '50'],
  ['5600000000000003', 'MAESTRO', '56'],
  ['5900000000000000', 'MAESTRO', '59'],
  ['340000000000009', 'AMEX', '34'],
  ['370000000000002', 'AMEX', '37'],
  ['350000000000006', 'UNKNOWN', '35'],
  ['330000000000001', 'UNKNOWN', '33'],
  ['30000000000004', 'DINERS', '300'],
  ['30500000000003', 'DINERS', '305'],
  ['30950000000000', 'DINERS', '3095'],
  ['36000000000008', 'DINERS', '36'],
  ['38000000000006', 'DINERS', '38'],
  ['39000000000005', 'DINERS', '39'],
  ['30600000000001', 'UNKNOWN', '306'],
  ['30940000000001', 'UNKNOWN', '3094'],
  ['3600000000000008', 'DINERS', '36'],
  ['6011000000000004', 'DISCOVER', '6011'],
  ['6440000000000005', 'DISCOVER', '644'],
  ['6490000000000004', 'DISCOVER', '649'],
  ['6500000000000002', 'DISCOVER', '65'],
  ['6011000000000000001', 'DISCOVER', '6011'],
  ['6010000000000005', 'UNKNOWN', '6010'],
  ['6430000000000007', 'UNKNOWN', '643'],
  ['3528000000000007', 'JCB', '3528'],
  ['3589000000000003', 'JCB', '3589'],
  ['3527000000000008', 'UNKNOWN', '3527'],
  ['3590000000000000', 'UNKNOWN', '3590'],
  ['3528000000000000007', 'JCB', '3528'],
  ['6200000000000005', 'CUP', '62'],
  ['6221260000000000', 'CUP', '622126'],
  ['6229250000000000006', 'CUP', '622925'],
  ['8100000000000002', 'CUP', '8100'],
  ['8171000000000006', 'CUP', '8171'],
  ['8172000000000005', 'UNKNOWN', '8172'],
  ['8099000000000005', 'UNKNOWN', '8099'],
  ['4936980000000004', 'MAESTRO', '493698'],
  ['5018000000000009', 'MAESTRO', '5018'],
  ['502000000005', 'MAESTRO', '5020'],
  ['5038000000000000005', 'MAESTRO', '5038'],
  ['5893000000000009', 'MAESTRO', '5893'],
  ['6304000000000000', 'MAESTRO', '6304'],
  ['6759000000000000', 'MAESTRO', '6759'],
  ['6761000000000006', 'MAESTRO', '6761'],
  ['5041740000000001', 'MAESTRO', '504174'],
  ['5041760000000009', 'MAESTRO', '504176'],
  ['5066980000000003', 'MAESTRO', '506698'],
  ['5067790000000005', 'MAESTRO', '506779'],
  ['4011780000000006', 'ELO', '401178'],
  ['4011790000000005', 'ELO', '401179'],
  ['4312740000000006', 'ELO', '431274'],
  ['4389350000000002', 'ELO', '438935'],
  ['4514160000000003', 'ELO', '451416'],
  ['4573930000000007', 'ELO', '457393'],
  ['4576310000000009', 'ELO', '457631'],
  ['4576320000000008', 'ELO', '457632'],
  ['5041750000000000', 'ELO', '504175'],
  ['5066990000000002', 'ELO', '506699'],
  ['5067780000000006', 'ELO', '506778'],
  ['5090000000000000', 'ELO', '509000'],
  ['5099990000000003', 'ELO', '509999'],
  ['6277800000000006', 'ELO', '627780'],
  ['6362970000000003', 'ELO', '636297'],
  ['6363680000000007', 'ELO', '636368'],
  ['6500310000000005', 'ELO', '650031'],
  ['6500330000000003', 'ELO', '650033'],
  ['6500340000000002', 'DISCOVER', '650034'],
  ['6500350000000001', 'ELO', '650035'],
  ['6500510000000000', 'ELO', '650051'],
  ['6504050000000003', 'ELO', '650405'],
  ['6504390000000003', 'ELO', '650439'],
  ['6504850000000006', 'ELO', '650485'],
  ['6505380000000003', 'ELO', '650538'],
  ['6505410000000008', 'ELO', '650541'],
  ['6505980000000000', 'ELO', '650598'],
  ['6507000000000005', 'ELO', '650700'],
  ['6507180000000005', 'ELO', '650718'],
  ['6507190000000004', 'DISCOVER', '650719'],
  ['6507200000000001', 'ELO', '650720'],
  ['6507270000000004', 'ELO', '650727'],
  ['6509010000000002', 'ELO', '650901'],
  ['6509780000000000', 'ELO', '650978'],
  ['6516520000000001', 'ELO', '651652'],
  ['6516790000000000', 'ELO', '651679'],
  ['6550000000000001', 'ELO', '655000'],
  ['6550190000000000', 'ELO', '655019'],
  ['6550200000000007', 'DISCOVER', '655020'],
  ['6550210000000006', 'ELO', '655021'],
  ['6550580000000002', 'ELO', '655058'],
  ['6277790000000009', 'CUP', '627779'],
  ['6062820000000003', 'HIPERCARD', '606282'],
  ['3841000000000000004', 'HIPERCARD', '384100'],
  ['3841400000000009', 'HIPERCARD', '384140'],
  ['3841600000000004', 'HIPERCARD', '384160'],
  ['38410100000006', 'DINERS', '384101'],
  ['6062810000000004', 'UNKNOWN', '606281'],
  ['1000000000000008', 'UNKNOWN', '1'],
  ['7000000000000005', 'UNKNOWN', '7'],
  ['9000000000000001', 'UNKNOWN', '9'],
  ['6000000000000007', 'UNKNOWN', '60'],
  ['6400000000000003', 'UNKNOWN', '64'],
];

// What the field shows while the user is still typing.
const PARTIAL: [string, CardNetwork][] = [
  ['', 'UNKNOWN'],
  ['4', 'VISA'],
  ['40', 'VISA'],
  ['402', 'VISA'],
  ['4026', 'VISA_ELECTRON'],
  ['40117', 'VISA'],
  ['401178', 'ELO'],
  ['5', 'UNKNOWN'],
  ['50', 'MAESTRO'],
  ['50417', 'MAESTRO'],
  ['504175', 'ELO'],
  ['3', 'UNKNOWN'],
  ['34', 'AMEX'],
  ['38', 'DINERS'],
  ['3841', 'DINERS'],
  ['384100', 'HIPERCARD'],
  ['6', 'UNKNOWN'],
  ['601', 'UNKNOWN'],
  ['6011', 'DISCOVER'],
  ['65', 'DISCOVER'],
  ['650031', 'ELO'],
  ['2', 'UNKNOWN'],
  ['222', 'UNKNOWN'],
  ['2221', 'MASTERCARD'],
  ['4200 0000', 'VISA'],
  ['3782-8224', 'AMEX'],
  ['abc', 'UNKNOWN'],
];

const RULES: [CardNetwork, number[], number[], 3 | 4][] = [
  ['AMEX', [15], [4, 10], 4],
  ['CUP', [14, 15, 16, 17, 18, 19], [4, 8, 12, 16], 3],
  ['DINERS', [14, 16, 19], [4, 10], 3],
  ['DISCOVER', [16, 19], [4, 8, 12, 16], 3],
  ['ELO', [16], [4, 8, 12, 16], 3],
  ['HIPERCARD', [16, 19], [4, 8, 12, 16], 3],
  ['JCB', [16, 17, 18, 19], [4, 8, 12, 16], 3],
  ['MAESTRO', [12, 13, 14, 15, 16, 17, 18, 19], [4, 8, 12, 16], 3],
  ['MASTERCARD', [16], [4, 8, 12, 16], 3],
  ['VISA', [16, 18, 19], [4, 8, 12, 16], 3],
  ['VISA_ELECTRON', [16], [4, 8, 12, 16], 3],
  ['VISA_VPAY', [13, 14, 15, 16, 17, 18, 19], [4, 8, 12, 16], 3],
  ['UNKNOWN', [12, 13, 14, 15, 16, 17, 18, 19], [4, 8, 12, 16], 3],
];

describe('detectNetwork', () => {
  describe('provider sandbox cards', () => {
    for (const [number, network] of SANDBOX_CARDS) {
      it(`${number} is a valid ${network} number`, () => {
        assert.equal(detectNetwork(number), network);
        assert.equal(isCardNumber(number), true);
      });
    }
  });

  describe('published test cards', () => {
    for (const [number, network] of PUBLISHED_TEST_CARDS) {
      it(`${number} is a valid ${network} number`, () => {
        assert.equal(detectNetwork(number), network);
        assert.equal(isCardNumber(number), true);
      });
    }
  });

  describe('range boundaries, most specific prefix first', () => {
    for (const [number, network, prefix] of BOUNDARIES) {
      it(`${prefix}… with ${number.length} digits is ${network}`, () => {
        assert.equal(detectNetwork(number), network);
        assert.equal(isCardNumber(number), true, 'a good number at an issued length');
      });
    }
  });

  describe('partial input', () => {
    for (const [input, network] of PARTIAL) {
      it(`"${input}" reads as ${network}`, () => {
        assert.equal(detectNetwork(input), network);
      });
    }
  });

  it('never names ELV, a bank-account scheme', () => {
    for (const [number] of [...BOUNDARIES, ...PUBLISHED_TEST_CARDS]) {
      assert.notEqual(detectNetwork(number), 'ELV');
    }
  });
});

describe('networkRules', () => {
  for (const [network, lengths, gaps, cvvLength] of RULES) {
    it(`${network}: lengths ${lengths.join(',')}, gaps ${gaps.join(',')}, CVV ${cvvLength}`, () => {
      assert.deepEqual(networkRules(network), { lengths, gaps, cvvLength });
    });
  }
});
