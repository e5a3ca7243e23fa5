import test from 'ava';
import { storeConformance } from './conformance.js';
import { esdbStore } from './fixtures/store-under-test.js';
import { requiredServerUrl } from '../support/required-server.js';

// EventStoreDB conformance. No server can run on this machine or in CI (infra.md §1c), so this
// runs only when ESDB_TEST_URL names one (e.g. esdb://127.0.0.1:2113?tls=false); without it the
// file prints why and registers a skipped test, which the test runner never counts as a pass.
const url = requiredServerUrl(test, 'ESDB_TEST_URL', 'EventStoreDB conformance', { requiredInCi: false });
if (url) storeConformance(test, 'esdb', esdbStore(url));
