// The customer's saved cards: the pay part's (src/widget/parts/pay.ts).
export const savedCardWords = {
  savedCards: 'Saved cards',
  savedCard: '{network} ending in {last4}',
  newCard: 'Use a new card',
  cardSaved: 'This card will be saved for future payments.',
};
