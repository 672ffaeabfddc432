import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';

/**
 * Chakra's default theme with text colours that reach WCAG AA (4.5:1) on our backgrounds:
 * - fg.subtle (small labels, format lists) is gray.500 in the default dark theme: 3.9:1 on the panels;
 * - the solid green and orange fills (success and warning toasts, badges) carry white text at 3.3:1
 *   and 3.6:1; one step darker they reach 5:1.
 */
const config = defineConfig({
  theme: {
    semanticTokens: {
      colors: {
        fg: {
          subtle: { value: { _light: '{colors.gray.600}', _dark: '{colors.gray.400}' } },
        },
        green: {
          solid: { value: { _light: '{colors.green.700}', _dark: '{colors.green.700}' } },
        },
        orange: {
          solid: { value: { _light: '{colors.orange.700}', _dark: '{colors.orange.700}' } },
        },
      },
    },
  },
});

export const system = createSystem(defaultConfig, config);
