export * from './ability';
export * from './constants';
export * from './env';
export * from './errors';
export * from './identity';
export * from './permissions';
export * from './realtime';
export * from './routes';
