import { ChakraProvider } from '@chakra-ui/react';
import { CacheProvider } from '@emotion/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { App } from './app/App';
import { createStore } from './app/store';
import { createStyleCache } from './app/styleCache';
import { system } from './app/theme';
import { Toaster } from './ui/toaster';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={createStore()}>
      <CacheProvider value={createStyleCache()}>
        <ChakraProvider value={system}>
          <BrowserRouter>
            <App />
          </BrowserRouter>
          <Toaster />
        </ChakraProvider>
      </CacheProvider>
    </Provider>
  </StrictMode>,
);
