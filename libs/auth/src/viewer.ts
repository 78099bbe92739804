/**
 * The caller: the id of the account its verified access token names (the SSO's `uid`). Token
 * verification is what makes one (UserContext.uid), and every visibility rule takes one, so the
 * path from a verified token to the SQL that decides what the caller sees is one type a reader
 * (and the compiler) can follow; a plain string cannot stand in for it by accident.
 */
export type Viewer = string & { readonly __brand: 'Viewer' };

/**
 * An account id taken as the caller, for what acts for an account without a token of its own:
 * tests, tools and the gateway's internal operations.
 */
export const asViewer = (accountId: string): Viewer => accountId as Viewer;
