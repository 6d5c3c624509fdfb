/** An obviously fake company key: the mocks accept any, the sandbox's demo company uses its own. */
export const fakeKey = 'ck_test_not_a_real_key_0000';
