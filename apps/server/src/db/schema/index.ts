export * from './events';
export * from './identity';
