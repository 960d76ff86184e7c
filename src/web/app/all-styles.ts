// All of Mantine's styles, in its `mantine` layer (./first-screen-styles has the first screens' part of them). Coming
// whole, after that part, they keep Mantine's own order between components that build on one another.
import '@mantine/core/styles.layer.css';
import '@mantine/notifications/styles.layer.css';
import '@mantine/spotlight/styles.layer.css';
