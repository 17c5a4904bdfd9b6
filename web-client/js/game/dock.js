// The game page's dock (notice, prompt, controls, hand): where it is a sheet fixed at the foot of
// the screen (a phone, style.css), the page keeps room for it under its end and the map's frame
// ends above it: its height is published as --dock-h on the page's root.
export function watchDock(dock) {
  const publish = () => {
    const fixed = dock.isConnected && getComputedStyle(dock).position === 'fixed';
    const px = fixed ? Math.ceil(dock.getBoundingClientRect().height) : 0;
    document.documentElement.style.setProperty('--dock-h', `${px}px`);
  };
  const watcher = new ResizeObserver(publish);
  watcher.observe(dock);
  window.addEventListener('resize', publish);
  publish();
  return () => {
    watcher.disconnect();
    window.removeEventListener('resize', publish);
    document.documentElement.style.removeProperty('--dock-h');
  };
}
