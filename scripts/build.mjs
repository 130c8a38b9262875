// `npm run build`: compile into dist/ without ever leaving it missing or empty (scripts/build-lib.mjs).
import { build } from './build-lib.mjs';

build();
