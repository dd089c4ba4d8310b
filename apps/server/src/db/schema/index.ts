export * from './events';
export * from './identity';
export * from './inbox';
export * from './inbox-settings';
export * from './ticket-activity';
export * from './ticket-customer-names';
