// Mantine's PostCSS preset: light-dark(), rem(), breakpoint mixins in our CSS modules.
module.exports = {
  plugins: {
    'postcss-preset-mantine': {},
  },
};
