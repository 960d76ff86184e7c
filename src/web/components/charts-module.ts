// Mantine's charts with their styles: the styles come when the charts' code does, after the first screen.
import '@mantine/charts/styles.css';

export * from '@mantine/charts';
