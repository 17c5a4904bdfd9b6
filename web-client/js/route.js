// Pure: the page a location hash names.
export function parseRoute(hash) {
  const parts = (hash || '').replace(/^#\/?/, '').split('/').filter(Boolean);
  if (parts[0] === 'game' && /^\d+$/.test(parts[1] || '')) {
    return { page: 'game', id: Number(parts[1]), observe: parts[2] === 'observe' };
  }
  if (parts[0] === 'replay' && /^\d+$/.test(parts[1] || ''))
    return { page: 'replay', id: Number(parts[1]) };
  if (parts[0] === 'invite' && parts[1]) return { page: 'invite', token: parts[1] };
  if (parts[0] === 'tournaments') return { page: 'tournaments' };
  if (parts[0] === 'tournament' && /^\d+$/.test(parts[1] || ''))
    return { page: 'tournament', id: Number(parts[1]) };
  if (parts[0] === 'help') return { page: 'help' };
  if (parts[0] === 'settings') return { page: 'settings' };
  if (parts[0] === 'ratings') return { page: 'ratings' };
  if (parts[0] === 'players' && parts[1])
    return { page: 'player', name: decodeURIComponent(parts[1]) };
  return { page: 'lobby' };
}
