// Written by `npm run compose` (bin/operation-types.ts) from schema/supergraph.graphql and rest-adapter/registry/operations/: do not edit.
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** frontend: the .docker.tar.gz image; android: APK or project archive; ios: Xcode project archive. */
export type BuildPackage =
  | 'frontend'
  | 'android'
  | 'ios';

export type DeploymentHeartbeatInput = {
  deploymentKey: string;
  metrics: HeartbeatMetricsInput;
};

/** alive: holds a seat; dead: two heartbeat intervals plus drift missed, seat free. */
export type DeploymentStatus =
  | 'alive'
  | 'dead';

export type FrontendBuildStatus =
  | 'queued'
  | 'running'
  | 'succeeded'
  | 'failed';

export type HeartbeatMetricsInput = {
  /** e.g. healthy */
  status: string;
  uptimeSeconds: number;
};

/** Active; Suspended (reversible); Revoked (final); Expired (past its validity). */
export type LicenceStatus =
  | 'Active'
  | 'Suspended'
  | 'Revoked'
  | 'Expired';

export type RegisterDeploymentInput = {
  hostname: string;
  ipAddress: string;
  currentVersion: string;
  /** The machine (its seat): SHA-256 hex of its machine id and the product; without it the host name stands for the machine */
  machineFingerprint?: string | null | undefined;
};

/** A channel sees its own releases and those of more stable channels (rc: rc and stable; beta: beta, rc, stable; alpha: all four); dev sees only dev. */
export type ReleaseChannel =
  | 'stable'
  | 'rc'
  | 'beta'
  | 'alpha'
  | 'dev';

export type SaveBrandingInput = {
  displayName: string;
  primaryColor: string;
  accentColor: string;
  /** http(s) URL, fetched once and stored. */
  logoUrl?: string | null | undefined;
  faviconUrl?: string | null | undefined;
  /** Uploaded logo, base64 (instead of logoUrl). */
  logoBase64?: string | null | undefined;
  /** Uploaded favicon, base64 (instead of faviconUrl). */
  faviconBase64?: string | null | undefined;
  /** The finance node’s public https address, where the mobile apps open the client. */
  publicUrl?: string | null | undefined;
};

export type WorkspaceRole =
  | 'owner'
  | 'member';

export type AuthorizeArtifactDownloadMutationVariables = Exact<{
  artifactId: string | number;
}>;


export type AuthorizeArtifactDownloadMutation = {
  authorization: {
    token: string,
    expiresAt: string
  }
};

export type CheckUpdateQueryVariables = Exact<{
  product: string;
  channel: string;
  currentVersion: string;
  baseUrl?: string | null | undefined;
}>;


export type CheckUpdateQuery = {
  update: {
    updateAvailable: boolean,
    latestVersion: string,
    channel: string,
    changelog: string,
    maintenanceCovered: boolean,
    releaseId: string | null,
    downloadUrl: string | null,
    latestCovered: {
      version: string,
      releaseId: string,
      downloadUrl: string
    } | null
  }
};

export type CheckoutLicenceMutationVariables = Exact<{ [key: string]: never; }>;


export type CheckoutLicenceMutation = {
  checkout: {
    token: string,
    expiresAt: string,
    algorithm: string,
    keyId: string,
    publicKey: string
  }
};

export type CurrentLicenceQueryVariables = Exact<{ [key: string]: never; }>;


export type CurrentLicenceQuery = {
  licence: {
    id: string,
    key: string,
    status: LicenceStatus,
    product: string,
    plan: string,
    maxNodes: number,
    nodesInUse: number,
    maintenanceUntil: string,
    entitlements: Array<string>,
    organisation: {
      id: string,
      name: string
    }
  }
};

export type CustomFrontendDownloadMutationVariables = Exact<{
  buildId: string | number;
  baseUrl?: string | null | undefined;
}>;


export type CustomFrontendDownloadMutation = {
  url: string
};

export type DeploymentHeartbeatMutationVariables = Exact<{
  input: DeploymentHeartbeatInput;
}>;


export type DeploymentHeartbeatMutation = {
  heartbeat: {
    status: DeploymentStatus,
    heartbeatIntervalSeconds: number,
    nextHeartbeatAt: string
  }
};

export type DownloadArtifactMutationVariables = Exact<{
  artifactId: string | number;
  probe: boolean;
  baseUrl?: string | null | undefined;
}>;


export type DownloadArtifactMutation = {
  download: {
    url: string | null,
    artifact: {
      filename: string,
      mediaType: string,
      size: number | null,
      sha256: string | null
    }
  }
};

export type LicensingPublicKeyQueryVariables = Exact<{ [key: string]: never; }>;


export type LicensingPublicKeyQuery = {
  publicKey: {
    algorithm: string,
    keyId: string,
    publicKey: string
  }
};

export type RegisterDeploymentMutationVariables = Exact<{
  input: RegisterDeploymentInput;
}>;


export type RegisterDeploymentMutation = {
  registration: {
    created: boolean,
    deployment: {
      id: string,
      deploymentKey: string,
      status: DeploymentStatus,
      heartbeatIntervalSeconds: number,
      nextHeartbeatAt: string,
      registeredAt: string
    }
  }
};

export type ReleaseDeploymentMutationVariables = Exact<{
  id: string | number;
}>;


export type ReleaseDeploymentMutation = {
  released: {
    id: string,
    hostname: string,
    currentVersion: string
  }
};

export type ReleaseManifestQueryVariables = Exact<{
  releaseId: string | number;
  format: string;
  baseUrl?: string | null | undefined;
}>;


export type ReleaseManifestQuery = {
  manifest: {
    content: string,
    contentType: string,
    filename: string
  }
};

export type ReleasesQueryVariables = Exact<{
  channel?: ReleaseChannel | null | undefined;
  baseUrl?: string | null | undefined;
}>;


export type ReleasesQuery = {
  releases: Array<{
    id: string,
    version: string,
    channel: ReleaseChannel,
    changelog: string,
    publishedAt: string,
    backdatedTo: string | null,
    maintenanceCovered: boolean,
    manifestUrl: string,
    artifacts: Array<{
      id: string,
      component: string,
      filename: string,
      mediaType: string,
      size: number | null,
      sha256: string | null,
      image: string | null,
      imageId: string | null
    }>
  }>
};

export type WorkspaceBrandingPageQueryVariables = Exact<{ [key: string]: never; }>;


export type WorkspaceBrandingPageQuery = {
  account: {
    email: string,
    organisation: {
      name: string
    }
  },
  branding: Array<{
    version: number,
    displayName: string,
    primaryColor: string,
    accentColor: string,
    logoUrl: string | null,
    faviconUrl: string | null,
    publicUrl: string | null,
    createdAt: string,
    createdBy: string,
    logo: {
      contentType: string,
      size: number
    } | null,
    favicon: {
      contentType: string,
      size: number
    } | null,
    primaryContrast: {
      againstWhite: number,
      againstBlack: number,
      textColour: string
    },
    accentContrast: {
      againstWhite: number,
      againstBlack: number,
      textColour: string
    }
  }>,
  builds: Array<{
    id: string,
    brandingVersion: number,
    status: FrontendBuildStatus,
    progress: number,
    error: string | null,
    createdAt: string,
    finishedAt: string | null
  }>
};

export type WorkspaceBuildQueryVariables = Exact<{
  id: string | number;
}>;


export type WorkspaceBuildQuery = {
  account: {
    email: string,
    organisation: {
      name: string
    }
  },
  build: {
    id: string,
    brandingVersion: number,
    status: FrontendBuildStatus,
    progress: number,
    log: Array<string>,
    error: string | null,
    createdAt: string,
    finishedAt: string | null,
    frontend: {
      filename: string,
      size: number,
      sha256: string,
      image: string | null,
      imageId: string | null
    } | null,
    android: {
      filename: string,
      size: number,
      sha256: string,
      kind: string | null
    } | null,
    ios: {
      filename: string,
      size: number,
      sha256: string
    } | null
  }
};

export type WorkspaceBuildPackageMutationVariables = Exact<{
  buildId: string | number;
  package: BuildPackage;
  baseUrl?: string | null | undefined;
}>;


export type WorkspaceBuildPackageMutation = {
  url: string
};

export type WorkspaceDownloadMutationVariables = Exact<{
  licenceId: string | number;
  artifactId: string | number;
  baseUrl?: string | null | undefined;
}>;


export type WorkspaceDownloadMutation = {
  download: {
    url: string | null
  }
};

export type WorkspaceHomeQueryVariables = Exact<{ [key: string]: never; }>;


export type WorkspaceHomeQuery = {
  account: {
    name: string,
    role: WorkspaceRole,
    email: string,
    organisation: {
      entitlements: Array<string>,
      name: string
    }
  },
  licences: Array<{
    id: string,
    key: string,
    status: LicenceStatus,
    product: string,
    plan: string,
    maxNodes: number,
    nodesInUse: number,
    maintenanceUntil: string
  }>,
  deployments: Array<{
    id: string,
    licenceId: string,
    hostname: string,
    ipAddress: string,
    currentVersion: string,
    status: DeploymentStatus,
    lastHeartbeatAt: string,
    reportedStatus: string | null,
    uptimeSeconds: number | null
  }>
};

export type WorkspaceManifestQueryVariables = Exact<{
  licenceId: string | number;
  releaseId: string | number;
  baseUrl?: string | null | undefined;
}>;


export type WorkspaceManifestQuery = {
  manifest: {
    content: string,
    contentType: string,
    filename: string
  }
};

export type WorkspaceReleaseDeploymentMutationVariables = Exact<{
  id: string | number;
}>;


export type WorkspaceReleaseDeploymentMutation = {
  released: {
    id: string,
    hostname: string
  }
};

export type WorkspaceReleasesQueryVariables = Exact<{
  licenceId: string | number;
  baseUrl?: string | null | undefined;
}>;


export type WorkspaceReleasesQuery = {
  account: {
    email: string,
    organisation: {
      name: string
    }
  },
  releases: Array<{
    id: string,
    version: string,
    channel: ReleaseChannel,
    changelog: string,
    publishedAt: string,
    maintenanceCovered: boolean,
    artifacts: Array<{
      id: string,
      component: string,
      filename: string,
      size: number | null,
      sha256: string | null
    }>
  }>
};

export type WorkspaceRequestBuildMutationVariables = Exact<{ [key: string]: never; }>;


export type WorkspaceRequestBuildMutation = {
  build: {
    id: string
  }
};

export type WorkspaceRequestPasswordResetMutationVariables = Exact<{
  email: string;
}>;


export type WorkspaceRequestPasswordResetMutation = {
  requestWorkspacePasswordReset: boolean
};

export type WorkspaceRevealKeyMutationVariables = Exact<{
  licenceId: string | number;
}>;


export type WorkspaceRevealKeyMutation = {
  key: string
};

export type WorkspaceSaveBrandingMutationVariables = Exact<{
  input: SaveBrandingInput;
}>;


export type WorkspaceSaveBrandingMutation = {
  branding: {
    version: number
  }
};

export type WorkspaceSetPasswordMutationVariables = Exact<{
  token: string;
  password: string;
}>;


export type WorkspaceSetPasswordMutation = {
  setWorkspacePassword: boolean
};

export type WorkspaceSignInMutationVariables = Exact<{
  email: string;
  password: string;
}>;


export type WorkspaceSignInMutation = {
  signInWorkspace: {
    session: string,
    expiresAt: string
  }
};

export type WorkspaceSignOutMutationVariables = Exact<{
  session: string;
}>;


export type WorkspaceSignOutMutation = {
  signOutWorkspace: boolean
};

export type WorkspaceUserFragment = {
  email: string,
  organisation: {
    name: string
  }
};

/** Each persisted operation's result and variables, by operation name. */
export interface Operations {
  AuthorizeArtifactDownload: { result: AuthorizeArtifactDownloadMutation; variables: AuthorizeArtifactDownloadMutationVariables };
  CheckoutLicence: { result: CheckoutLicenceMutation; variables: CheckoutLicenceMutationVariables };
  CheckUpdate: { result: CheckUpdateQuery; variables: CheckUpdateQueryVariables };
  CurrentLicence: { result: CurrentLicenceQuery; variables: CurrentLicenceQueryVariables };
  CustomFrontendDownload: { result: CustomFrontendDownloadMutation; variables: CustomFrontendDownloadMutationVariables };
  DeploymentHeartbeat: { result: DeploymentHeartbeatMutation; variables: DeploymentHeartbeatMutationVariables };
  DownloadArtifact: { result: DownloadArtifactMutation; variables: DownloadArtifactMutationVariables };
  LicensingPublicKey: { result: LicensingPublicKeyQuery; variables: LicensingPublicKeyQueryVariables };
  RegisterDeployment: { result: RegisterDeploymentMutation; variables: RegisterDeploymentMutationVariables };
  ReleaseDeployment: { result: ReleaseDeploymentMutation; variables: ReleaseDeploymentMutationVariables };
  ReleaseManifest: { result: ReleaseManifestQuery; variables: ReleaseManifestQueryVariables };
  Releases: { result: ReleasesQuery; variables: ReleasesQueryVariables };
  WorkspaceBrandingPage: { result: WorkspaceBrandingPageQuery; variables: WorkspaceBrandingPageQueryVariables };
  WorkspaceBuild: { result: WorkspaceBuildQuery; variables: WorkspaceBuildQueryVariables };
  WorkspaceBuildPackage: { result: WorkspaceBuildPackageMutation; variables: WorkspaceBuildPackageMutationVariables };
  WorkspaceDownload: { result: WorkspaceDownloadMutation; variables: WorkspaceDownloadMutationVariables };
  WorkspaceHome: { result: WorkspaceHomeQuery; variables: WorkspaceHomeQueryVariables };
  WorkspaceManifest: { result: WorkspaceManifestQuery; variables: WorkspaceManifestQueryVariables };
  WorkspaceReleaseDeployment: { result: WorkspaceReleaseDeploymentMutation; variables: WorkspaceReleaseDeploymentMutationVariables };
  WorkspaceReleases: { result: WorkspaceReleasesQuery; variables: WorkspaceReleasesQueryVariables };
  WorkspaceRequestBuild: { result: WorkspaceRequestBuildMutation; variables: WorkspaceRequestBuildMutationVariables };
  WorkspaceRequestPasswordReset: { result: WorkspaceRequestPasswordResetMutation; variables: WorkspaceRequestPasswordResetMutationVariables };
  WorkspaceRevealKey: { result: WorkspaceRevealKeyMutation; variables: WorkspaceRevealKeyMutationVariables };
  WorkspaceSaveBranding: { result: WorkspaceSaveBrandingMutation; variables: WorkspaceSaveBrandingMutationVariables };
  WorkspaceSetPassword: { result: WorkspaceSetPasswordMutation; variables: WorkspaceSetPasswordMutationVariables };
  WorkspaceSignIn: { result: WorkspaceSignInMutation; variables: WorkspaceSignInMutationVariables };
  WorkspaceSignOut: { result: WorkspaceSignOutMutation; variables: WorkspaceSignOutMutationVariables };
}
