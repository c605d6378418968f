import { everythingSuite } from './everythingSuite';
import { everythingStdio } from './mcpKit';

everythingSuite('stdio', 'stdio', async () => ({ config: everythingStdio(), stop: async () => {} }));
