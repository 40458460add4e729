import type { CreatedApiToken } from '../api/types';
import { SecretNotice } from './SecretNotice';

export function NewTokenNotice({ token, onDismiss }: { token: CreatedApiToken; onDismiss: () => void }) {
  return (
    <SecretNotice title={`Token “${token.name}” created`} secret={token.token} testId="new-token" onDismiss={onDismiss}>
      Copy it now and store it somewhere safe. It will not be shown again.
    </SecretNotice>
  );
}
