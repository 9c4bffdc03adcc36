/** Program role 0 creates; 1 and 2 approve. The labels are console messages `accounts.role<N>`. */
export const PROGRAM_ROLES = [0, 1, 2] as const;
export const roleLabelKey = (role: number) =>
  `accounts.role${PROGRAM_ROLES.includes(role as 0 | 1 | 2) ? role : 0}`;

/** A console user is a customer manager (3) or a customer administrator (4). */
export const CONSOLE_USER_TYPES = ['3', '4'] as const;
export const userTypeLabelKey = (type: string) => `accounts.userType${type}`;
