/** Obviously fake company keys: the mocks accept any; the contract run's sandbox knows these two. */
export const fakeKey = 'ck_test_not_a_real_key_0000';
export const otherFakeKey = 'ck_test_other_company_0000';
