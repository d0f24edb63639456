// Channel folders.
import { snakeKeys, type Route } from '../route.ts';

export const channelFolderRoutes: Route[] = [
  { method: 'GET', path: '/channel_folders', field: 'channelFolders', shape: (folders) => ({ channel_folders: snakeKeys(folders) }) },
  { method: 'POST', path: '/channel_folders/create', field: 'createChannelFolder', shape: (id) => ({ channel_folder_id: id }) },
  { method: 'PATCH', path: '/channel_folders', field: 'reorderChannelFolders', shape: () => ({}) },
  { method: 'PATCH', path: '/channel_folders/{channel_folder_id}', field: 'updateChannelFolder', shape: () => ({}) },
];
