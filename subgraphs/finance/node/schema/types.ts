import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { NodeUserRef } from '../../kernel/user-ref';

@ObjectType({ simpleResolvers: true, description: 'One module switch of the settings record.' })
export class NodeModuleState {
  @Field() module: string;
  @Field() enabled: boolean;
}

@ObjectType({ simpleResolvers: true, description: "What the finance subgraphs' gate decides on: licence read-only mode, maintenance, modules." })
export class NodeStatus {
  @Field() readOnly: boolean;
  @Field(() => [String]) licenceChecks: string[];
  @Field(() => Date, { nullable: true }) licenceExpiresAt: Date | null;
  @Field() maintenance: boolean;
  @Field() maintenanceMessage: string;
  @Field() enforce2fa: boolean;
  @Field() kycRequired: boolean;
  @Field() enhancedKycRequired: boolean;
  @Field() brokerageProvider: string;
  @Field() fractionalShares: boolean;
  @Field(() => [NodeModuleState]) modules: NodeModuleState[];
}

@ObjectType({ simpleResolvers: true, description: 'The settings record: the sixteen administrator toggles (changed only in the admin console).' })
export class NodeSettings {
  @Field() shopEnabled: boolean;
  @Field() investmentsEnabled: boolean;
  @Field() virtualIbanEnabled: boolean;
  @Field() africanAccountsEnabled: boolean;
  @Field() mobileMoneyEnabled: boolean;
  @Field() kycRequired: boolean;
  @Field() disputesEnabled: boolean;
  @Field() cryptoEnabled: boolean;
  @Field() fiatRampsEnabled: boolean;
  @Field() rewardsEnabled: boolean;
  @Field() enforce2fa: boolean;
  @Field() enhancedKycRequired: boolean;
  @Field() maintenanceMode: boolean;
  @Field() maintenanceMessage: string;
  @Field({ description: 'decentralized_exchange, equities_brokerage or market_data' }) brokerageProvider: string;
  @Field() fractionalSharesEnabled: boolean;
  @Field() updatedAt: Date;
  @Field(() => String, { nullable: true }) updatedBy: string | null;
}

@InputType({ description: 'A change of the settings record: the fields given change.' })
export class NodeSettingsInput {
  @Field({ nullable: true }) shopEnabled?: boolean;
  @Field({ nullable: true }) investmentsEnabled?: boolean;
  @Field({ nullable: true }) virtualIbanEnabled?: boolean;
  @Field({ nullable: true }) africanAccountsEnabled?: boolean;
  @Field({ nullable: true }) mobileMoneyEnabled?: boolean;
  @Field({ nullable: true }) kycRequired?: boolean;
  @Field({ nullable: true }) disputesEnabled?: boolean;
  @Field({ nullable: true }) cryptoEnabled?: boolean;
  @Field({ nullable: true }) fiatRampsEnabled?: boolean;
  @Field({ nullable: true }) rewardsEnabled?: boolean;
  @Field({ nullable: true }) enforce2fa?: boolean;
  @Field({ nullable: true }) enhancedKycRequired?: boolean;
  @Field({ nullable: true }) maintenanceMode?: boolean;
  @Field({ nullable: true }) maintenanceMessage?: string;
  @Field({ nullable: true }) brokerageProvider?: string;
  @Field({ nullable: true }) fractionalSharesEnabled?: boolean;
}

@ObjectType({ simpleResolvers: true, description: 'The uploaded logo: its object in the object store, type (from its bytes), size and SHA-256.' })
export class NodeBrandingLogo {
  @Field() objectKey: string;
  @Field() contentType: string;
  @Field(() => Int) size: number;
  @Field() sha256: string;
  @Field() uploadedAt: Date;
}

@ObjectType({ simpleResolvers: true, description: "The organisation's branding (public: clients theme themselves with it)." })
export class NodeBranding {
  @Field() organisationName: string;
  @Field() legalEntity: string;
  @Field({ description: "The uploaded logo's public path (/api/v1/config/logo/?v=<version>), or empty: no logo." }) logoUrl: string;
  @Field({
    description: 'A logo value saved before uploads existed (a data: URI or an https URL): not shown to anyone until a logo is uploaded; empty otherwise.',
  })
  legacyLogoUrl: string;
  @Field(() => NodeBrandingLogo, { nullable: true, description: 'The uploaded logo (null: none).' }) logo: NodeBrandingLogo | null;
  @Field() faviconUrl: string;
  @Field() colorPrimary: string;
  @Field() colorSecondary: string;
  @Field() colorAccent: string;
  @Field() supportEmail: string;
  @Field() supportPhone: string;
  @Field() termsUrl: string;
  @Field() privacyUrl: string;
  @Field() updatedAt: Date;
}

@InputType()
export class NodeBrandingInput {
  @Field({ nullable: true }) organisationName?: string;
  @Field({ nullable: true }) legalEntity?: string;
  @Field({ nullable: true, description: 'Only "" (no logo): a logo is uploaded as a file (uploadNodeLogo).' }) logoUrl?: string;
  @Field({ nullable: true }) faviconUrl?: string;
  @Field({ nullable: true }) colorPrimary?: string;
  @Field({ nullable: true }) colorSecondary?: string;
  @Field({ nullable: true }) colorAccent?: string;
  @Field({ nullable: true }) supportEmail?: string;
  @Field({ nullable: true }) supportPhone?: string;
  @Field({ nullable: true }) termsUrl?: string;
  @Field({ nullable: true }) privacyUrl?: string;
}

@ObjectType({ simpleResolvers: true })
export class NodeBankingRail {
  @Field() rail: string;
  @Field(() => [String]) currencies: string[];
  @Field() module: string;
}

@ObjectType({ simpleResolvers: true, description: 'A system check finding, as Django reports them (app.E001 …).' })
export class NodeCheck {
  @Field() id: string;
  @Field({ description: 'ERROR, WARNING or INFO' }) level: string;
  @Field() message: string;
  @Field(() => String, { nullable: true }) hint: string | null;
}

@ObjectType({ simpleResolvers: true, description: "The claims of the node's licence token." })
export class NodeLicenceClaims {
  @Field() licenceId: string;
  @Field() organisationId: string;
  @Field() organisationName: string;
  @Field() product: string;
  @Field() plan: string;
  @Field() maxNodes: number;
  @Field() maintenanceUntil: string;
  @Field(() => [String]) entitlements: string[];
  @Field() status: string;
}

@ObjectType({ simpleResolvers: true, description: "The node's licence as verified offline." })
export class NodeLicenceState {
  @Field({ description: 'valid, missing, invalid or expired' }) status: string;
  @Field() valid: boolean;
  @Field(() => String, { nullable: true, description: 'Where the licence in force comes from: environment, admin, cli, registry or api (administrators only)' })
  source: string | null;
  @Field(() => Date, { nullable: true }) installedAt: Date | null;
  @Field(() => [String], { description: 'Ids of the failing licence checks' }) checks: string[];
  @Field(() => NodeLicenceClaims, { nullable: true, description: 'Administrators only' }) claims: NodeLicenceClaims | null;
  @Field(() => String, { nullable: true }) issuer: string | null;
  @Field(() => String, { nullable: true }) keyId: string | null;
  @Field(() => Date, { nullable: true }) issuedAt: Date | null;
  @Field(() => Date, { nullable: true }) expiresAt: Date | null;
}

@ObjectType({ simpleResolvers: true, description: "The node's registration with the licence registry." })
export class NodeDeployment {
  @Field(() => String, { nullable: true, description: 'Administrators only' }) registryUrl: string | null;
  @Field(() => String, { nullable: true, description: 'Administrators only' }) deploymentId: string | null;
  @Field() heartbeatIntervalSeconds: number;
  @Field(() => Date, { nullable: true }) lastHeartbeatAt: Date | null;
  @Field(() => String, { nullable: true }) lastHeartbeatStatus: string | null;
  @Field(() => Date, { nullable: true }) nextHeartbeatAt: Date | null;
  @Field() registeredAt: Date;
}

@ObjectType({ simpleResolvers: true, description: 'Node identity, licence status and system check results.' })
export class NodeInfo {
  @Field({ description: 'APP_NAME' }) name: string;
  @Field({ description: 'APP_VERSION' }) version: string;
  @Field(() => String, { nullable: true, description: 'Administrators only' }) hostname: string | null;
  @Field(() => String, { nullable: true, description: 'The id the licence registry gave this node at activation (administrators only)' })
  deploymentId: string | null;
  @Field() readOnly: boolean;
  @Field() maintenance: boolean;
  @Field(() => NodeLicenceState) licence: NodeLicenceState;
  @Field(() => [NodeCheck], { nullable: true, description: 'Every system check with its message (administrators only: they name paths and settings)' })
  checks: NodeCheck[] | null;
  @Field(() => NodeDeployment, { nullable: true, description: 'Administrators only' }) deployment: NodeDeployment | null;
}

@ObjectType({ simpleResolvers: true, description: 'A provider credential: the secret is encrypted at rest and only shown masked.' })
export class NodeProviderCredential {
  @Field(() => ID) id: string;
  @Field() provider: string;
  @Field() name: string;
  @Field({ description: 'The secret, masked (its last characters at most)' }) secretHint: string;
  @Field() updatedAt: Date;
  @Field(() => String, { nullable: true }) updatedBy: string | null;
}

@ObjectType({ simpleResolvers: true })
export class NodeActivity {
  @Field(() => ID) id: string;
  @Field() at: Date;
  @Field() actor: string;
  @Field() action: string;
  @Field({ description: 'A JSON object' }) detail: string;
  @Field(() => NodeUserRef, { nullable: true, description: 'The user the entry is about (its detail\'s `user`), by reference: their user name from identity' })
  user: NodeUserRef | null;
}

@ObjectType({ simpleResolvers: true })
export class AssistantAnswer {
  @Field() answer: string;
  @Field() model: string;
}
