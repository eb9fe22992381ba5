// The one button of the dashboard: react-aria-components' Button (press, keyboard and focus handled alike on every
// device), ranked by its variant: primary (the page's main action), secondary, destructive, quiet (in toolbars).
import { Button as AriaButton, type ButtonProps } from 'react-aria-components';

export type ButtonVariant = 'primary' | 'secondary' | 'destructive' | 'quiet';

export function Button({ variant = 'secondary', className, ...props }: ButtonProps & { variant?: ButtonVariant }) {
  const own = `button button-${variant}`;
  return (
    <AriaButton {...props} className={typeof className === 'function' ? (state) => `${own} ${className(state)}` : className ? `${own} ${className}` : own} />
  );
}
